"""Words for the demo articles: titles, names, captions, subcaptions, filler prose.

The sentences are templated but medical enough that keyword filters, modality
concepts and caption cleaners have something real to chew on. Only characters
in the PDF standard fonts' WinAnsi encoding are used (en dash, ×, ±, µ are fine),
so the text pdfplumber extracts equals the text in the XML.
"""

from __future__ import annotations

import random

GIVEN = ["Ana", "Wei", "Fatima", "Lars", "Priya", "Tomasz", "Chiara", "Kwame", "Yuki", "Sofia", "Omar", "Ingrid", "Mateo", "Leila"]
SURNAMES = ["Ribeiro", "Zhang", "Haddad", "Nilsson", "Raman", "Kowalski", "Bianchi", "Mensah", "Tanaka", "Petrova", "Farouk", "Larsen", "Herrera", "Karimi"]
DEPARTMENTS = ["Department of Radiology", "Department of Pathology", "Department of Internal Medicine", "Institute of Biomedical Imaging", "Department of Oncology"]
PLACES = ["University Hospital, Porto, Portugal", "Medical College, Chengdu, China", "University of Oslo, Oslo, Norway", "City Clinical Centre, Accra, Ghana", "Kyoto Medical School, Kyoto, Japan"]
JOURNALS = [
    ("Demo Journal of Medical Imaging", "Demo J Med Imaging"),
    ("Synthetic Case Reports in Radiology", "Synth Case Rep Radiol"),
    ("Journal of Demonstration Pathology", "J Demo Pathol"),
]

DISEASES = ["hepatocellular carcinoma", "pulmonary sarcoidosis", "glioblastoma", "renal cell carcinoma", "tuberculous lymphadenitis", "hepatic hydatid cyst", "low-grade glioma", "pulmonary embolism"]
TITLE_TEMPLATES = [
    "Imaging and histopathological features of {disease}: a retrospective study of {n} patients",
    "{Disease} presenting as an incidental finding: a case report and review of the literature",
    "Multimodal imaging assessment of {disease} before and after treatment",
    "Diagnostic performance of CT and MRI in {disease}: a single-centre cohort",
]

MODALITY_WORDS = {
    "ct": "computed tomography (CT)",
    "mri": "magnetic resonance imaging (MRI)",
    "ultrasound": "ultrasonography",
    "xray": "chest radiography",
    "histology": "histopathological examination",
    "fluorescence": "immunofluorescence staining",
    "chart": "survival analysis",
}

# One subcaption per panel: what an author writes after "(a)". Slots are filled per figure.
SUBCAPTIONS = {
    "ct": [
        "Axial contrast-enhanced CT of the {region} shows a {size} mm hypodense lesion in the {side} lobe",
        "Non-contrast CT at {weeks} weeks demonstrates interval reduction of the lesion",
        "Axial CT image showing bilateral hilar lymphadenopathy",
    ],
    "mri": [
        "Axial T2-weighted MRI shows a hyperintense mass in the {side} frontal lobe",
        "Post-contrast T1-weighted MRI demonstrating peripheral ring enhancement",
        "FLAIR image showing perilesional oedema",
    ],
    "ultrasound": [
        "Transabdominal ultrasound shows an anechoic cyst with posterior acoustic enhancement",
        "Ultrasound image demonstrating a well-defined hypoechoic nodule measuring {size} mm",
    ],
    "xray": [
        "Posteroanterior chest radiograph shows a rounded opacity in the {side} lower zone",
        "Chest X-ray at follow-up demonstrating resolution of the consolidation",
    ],
    "histology": [
        "Haematoxylin and eosin staining shows sheets of atypical cells (original magnification ×{mag})",
        "H&E section demonstrating non-caseating granulomas (×{mag})",
    ],
    "fluorescence": [
        "Immunofluorescence for Ki-67 (green) with DAPI counterstain (blue)",
        "Confocal image of CD31-positive vessels (green); nuclei in blue",
    ],
    "chart": ["Kaplan–Meier estimates of overall survival by treatment group"],
    "line": ["Mean symptom score over {weeks} weeks in treated and control patients; error bars show SD"],
    "bar": ["Lesion volume at each visit (mean ± SD)"],
    "scatter": ["Correlation between lesion size and SUVmax (r = 0.{r})"],
    "survival": ["Kaplan–Meier curves of progression-free survival by risk group"],
}

FIGURE_TITLES = [
    "Imaging findings in a {age}-year-old {sex} with {disease}.",
    "Representative findings at diagnosis and follow-up.",
    "Multimodal assessment of the index lesion.",
    "Histopathological and imaging correlation.",
    "Treatment response in the study cohort.",
    "Quantitative outcomes.",
]
SINGLE_TITLES = {
    "ct": "Axial contrast-enhanced CT of the abdomen at presentation.",
    "mri": "Axial T2-weighted MRI of the brain.",
    "ultrasound": "Abdominal ultrasound at admission.",
    "xray": "Posteroanterior chest radiograph on admission.",
    "histology": "Histopathology of the resected specimen (haematoxylin and eosin, ×200).",
    "fluorescence": "Immunofluorescence of the biopsy specimen.",
    "chart": "Overall survival in the study cohort.",
    "line": "Symptom scores during follow-up.",
    "bar": "Lesion volume by visit.",
    "scatter": "Relation between lesion size and metabolic activity.",
    "survival": "Progression-free survival by risk group.",
}
CAPTION_NOTES = [
    "Arrows indicate the lesion.",
    "CT, computed tomography; MRI, magnetic resonance imaging.",
    "Scale bars, 50 µm.",
    "Data are shown as mean ± SD; n = {n} patients per group.",
]

FILLER = {
    "intro": [
        "{Disease} remains a diagnostic challenge because its imaging appearance overlaps with that of other conditions.",
        "Early recognition is important, as delayed treatment is associated with higher morbidity.",
        "Cross-sectional imaging has become central to the work-up of suspected {disease}.",
        "Histopathological confirmation is still regarded as the reference standard.",
        "Several case series have described the radiological spectrum of the disease, but systematic data are scarce.",
        "In this report we describe the imaging, histological and clinical features and discuss the differential diagnosis.",
    ],
    "methods": [
        "We retrospectively reviewed the records of {n} consecutive patients treated at our institution between 2015 and 2022.",
        "The study was approved by the institutional review board, and the requirement for informed consent was waived.",
        "CT examinations were performed on a 64-detector scanner after intravenous contrast administration.",
        "MRI was acquired at 3 T with T1-weighted, T2-weighted and diffusion-weighted sequences.",
        "Two radiologists with 8 and 15 years of experience reviewed all images independently.",
        "Continuous variables are reported as mean ± standard deviation and compared with the t test.",
        "A two-sided p value below 0.05 was considered statistically significant.",
    ],
    "case": [
        "A {age}-year-old {sex} presented to the emergency department with a two-week history of fever and malaise.",
        "Physical examination revealed mild tenderness without signs of peritonitis.",
        "Laboratory tests showed a raised C-reactive protein of 48 mg/L and a normal white cell count.",
        "The patient had no relevant medical history and took no regular medication.",
    ],
    "results": [
        "The mean age of the patients was {age} years, and {pct}% were women.",
        "Inter-observer agreement was good, with a kappa of 0.{k}.",
        "No complications occurred during follow-up.",
        "The median follow-up was {weeks} months (range, 3–60 months).",
    ],
    "discussion": [
        "Our findings are consistent with previous reports describing similar imaging features.",
        "The main limitation of this study is its retrospective design and the small sample size.",
        "Correlation with histopathology remains essential when the imaging appearance is atypical.",
        "Larger prospective studies are needed to confirm these observations.",
        "Awareness of this entity may help radiologists to avoid unnecessary invasive procedures.",
    ],
}

# Sentences citing a figure: {M} is where the mention goes, {what} the panel content.
CITING = [
    "{What} ({M}).",
    "As shown in {M}, {what_lc}.",
    "{M} illustrates that {what_lc}.",
    "On imaging, {what_lc} ({M}).",
    "These findings are summarised in {M}.",
]
REFERENCES = [
    "Smith J, Lee K. Imaging spectrum of {disease}. Demo Radiol. 2019;12:101–110.",
    "Garcia M, Chen L, Patel R. Histopathological correlates of cross-sectional imaging. J Demo Pathol. 2020;4:55–63.",
    "Okafor C, Jensen P. Outcomes after treatment of {disease}: a cohort study. Synth Med. 2021;8:e114.",
    "Novak T, Sato H. Diagnostic accuracy of MRI: a meta-analysis. Demo J Med Imaging. 2022;15:230–241.",
]


def fill(template: str, r: random.Random, disease: str) -> str:
    """Fill a template's slots with plausible values; unknown slots stay untouched."""
    values = {
        "disease": disease,
        "Disease": disease[0].upper() + disease[1:],
        "n": str(r.randint(18, 240)),
        "age": str(r.randint(24, 81)),
        "sex": r.choice(["man", "woman"]),
        "size": str(r.randint(8, 46)),
        "side": r.choice(["left", "right"]),
        "region": r.choice(["abdomen", "chest", "pelvis"]),
        "weeks": str(r.choice([6, 8, 12, 24])),
        "mag": str(r.choice([100, 200, 400])),
        "r": str(r.randint(45, 89)),
        "pct": str(r.randint(30, 70)),
        "k": str(r.randint(61, 89)),
    }
    out = template
    for key, value in values.items():
        out = out.replace("{" + key + "}", value)
    return out
