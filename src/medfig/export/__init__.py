"""Writers from a curated release to the formats people train on: ROCOv2 files, MedICaT JSONL,
Hugging Face parquet, WebDataset shards, and a dataset card."""
