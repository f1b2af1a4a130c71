"""Hand-written variants of radiology concepts: abbreviations, hyphenations, synonyms.

Keys are surface forms (normalised like captions), values are canonical *names*
looked up in the vocabulary at load time, so the table works with any vocabulary
that has the name and silently skips names it lacks (no CUI is hard-coded here).
"""

from __future__ import annotations

VARIANTS: dict[str, tuple[str, ...]] = {
    # modalities
    "ct": ("X-Ray Computed Tomography",),
    "ct scan": ("X-Ray Computed Tomography",),
    "computed tomography": ("X-Ray Computed Tomography",),
    "computerized tomography": ("X-Ray Computed Tomography",),
    "computerised tomography": ("X-Ray Computed Tomography",),
    "cta": ("X-Ray Computed Tomography", "angiogram"),
    "ct angiography": ("X-Ray Computed Tomography", "angiogram"),
    "hrct": ("X-Ray Computed Tomography",),
    "mdct": ("X-Ray Computed Tomography",),
    "cbct": ("X-Ray Computed Tomography",),
    "mri": ("Magnetic Resonance Imaging",),
    "mr": ("Magnetic Resonance Imaging",),
    "mr imaging": ("Magnetic Resonance Imaging",),
    "magnetic resonance": ("Magnetic Resonance Imaging",),
    "mra": ("Magnetic Resonance Imaging", "angiogram"),
    "us": ("Ultrasonography",),
    "ultrasound": ("Ultrasonography",),
    "ultrasonography": ("Ultrasonography",),
    "doppler": ("Ultrasonography",),
    "pet": ("Positron-Emission Tomography",),
    "pet ct": ("PET/CT scan",),
    "x ray": ("Plain x-ray",),
    "plain film": ("Plain x-ray",),
    "radiograph": ("Plain x-ray",),
    "plain radiograph": ("Plain x-ray",),
    "angiography": ("angiogram",),
    "angiographic": ("angiogram",),
    "arteriography": ("angiogram",),
    "dsa": ("angiogram",),
    # common anatomy / findings short forms
    "cxr": ("Plain x-ray", "Chest"),
    "lv": ("Left ventricular structure",),
    "rv": ("Right ventricular structure",),
    "ivc": ("Inferior vena cava structure",),
    "svc": ("Superior vena cava structure",),
    "lad": ("Anterior descending branch of left coronary artery",),
    "rca": ("Right coronary artery structure",),
    "csf": ("Cerebrospinal Fluid",),
    "ggo": ("Ground glass opacity",),
    "pe": ("Pulmonary Embolism",),
}
