"""ROCOv2-style "manual" concepts from caption rules: modality, IRMA body region, X-ray direction.

ROCOv2 (Rückert et al. 2024) gives every image one modality concept and, for
X-ray images, a body region (IRMA code's anatomy axis, 8 classes) and a
projection direction. medfig derives them from the caption with ordered rules;
each class carries the CUI ROCOv2 uses.

Modality decisions (checked against ROCO's own modality CUIs, see
benchmarks/curate_modality.py):
- combined modalities (PET/CT, SPECT/CT, PET/MRI) win over their parts;
- CT/MR angiography ("CTA", "MRA", "CT angiogram") is *angiography*, as ROCO codes it;
- otherwise the modality named first in the caption wins ("MRI ... compared with
  the earlier CT" is an MRI), because captions name the shown image first;
- names count in French, Spanish, Portuguese, Italian and German too (TDM, IRM,
  échographie, tomografía computarizada, Röntgen ...);
- when nothing is named, a second tier of cues that imply one modality decides
  (IMPLIED_MODALITY_RULES: "lateral view" of a bone, a pyelogram, echogenicity, T2
  hyperintensity, Hounsfield units, cardiac catheterization ...), except on captions
  of photographs, micrographs or operative views (NOT_RADIOLOGY).
Captions that neither name nor imply a modality get ``None``.
"""

from __future__ import annotations

import re

MODALITY_CUI = {
    "angiography": "C0002978",  # angiogram
    "ct": "C0040405",  # X-Ray Computed Tomography
    "mri": "C0024485",  # Magnetic Resonance Imaging
    "pet": "C0032743",  # Positron-Emission Tomography
    "ultrasound": "C0041618",  # Ultrasonography
    "xray": "C1306645",  # Plain x-ray
    "combined": "C1699633",  # PET/CT scan (ROCOv2's concept for combined modalities)
}

_I = re.IGNORECASE
# (class, pattern, flags); order matters only for ties at the same position.
MODALITY_RULES: list[tuple[str, re.Pattern]] = [
    ("combined", re.compile(r"\b(?:PET|SPECT)\s*[/-]\s*(?:CT|MRI?)\b|\bPET\s*/\s*computed|positron[\s-]emission\s+tomography\s*[/-]\s*(?:comput|CT\b)|\bhybrid\s+imaging\b", _I)),
    ("angiography", re.compile(r"\b(?:CTA|MRA|MRV|DSA|FFA|ICGA)\b|\b(?:LAO|RAO)\s+(?:\d+°?\s+)?(?:view|projection)|\b\d+°\s+(?:LAO|RAO)\b")),
    ("angiography", re.compile(r"\b(?:angiogra\w*|art[ée]riogra\w*|v[ée]nogra\w*|phl[ée]bogra\w*|angiocardiogra\w*|aortogra\w*|portogra\w*|coronarogra\w*|lymphangiogra\w*)", _I)),
    ("pet", re.compile(r"\bPET\b|\bpositron[\s-]emission|\bFDG\b|\b18F-FDG\b")),
    ("mri", re.compile(r"\b(?:MRI|MR|IRM|fMRI|DWI|ADC|FLAIR|MRCP|DTI|CISS|CMR|LGE)\b|\bT[12][\s-]?mapp?\w*")),
    ("mri", re.compile(r"r[ée]sonn?an(?:ce|cia|za)\s+magn[ée]ti\w*|magnetresonanz\w*|kernspin\w*|\bresson[âa]ncia\s+magn[ée]tica|magnetic\s+resonance|\bT[12][\s-]*weighted|\bT[12]W\w*\b|diffusion[\s-]weighted|\bgadolinium|\bflair\b|\bT2\*|\bdiffusion\s+(?:image|images|restriction|imaging)|\b(?:FSE|TSE|FISP|TrueFISP|GRE|STIR|SWI|FIESTA|HASTE)\b", _I)),
    # "T1"/"T2" alone are also vertebrae: only as a sequence name after a plane or before "image"/"signal"
    ("mri", re.compile(r"\b(?:axial|coronal|sagittal)\s+T[12]\b|\bT[12]\s+(?:image|images|sequence|signal|hyperintens\w*|hypointens\w*|fat|post|pre|with)\b", _I)),
    ("ct", re.compile(r"\b(?:CT|HRCT|MDCT|CBCT|NCCT|CECT|MSCT)\b|\bCT\s*scan", 0)),
    ("ct", re.compile(r"comput\w*\s+(?:axial\s+)?tomogra\w*|\bcone[\s-]beam|\btomodensitom[ée]tr\w*|\bcomputertomogra\w*"
                      r"|\btomograf[ií]a\s+(?:axial\s+)?computa\w*|\b(?:angio)?scann?e?r\b|\bscann?ogra\w*|\bangioscan\w*", _I)),
    # French/Spanish/Portuguese/Italian abbreviations for CT, upper case only ("Tc" is technetium)
    ("ct", re.compile(r"\b(?:TDM|TAC)\b|\bTC\b(?=\s*(?:scan|de\b|del\b|do\b|da\b|image|axial|coronal|sagittal|showing|shows|thoracique|abdominal|cerebral|craneal|:))"
                      r"|(?:axial|coronal|sagittal|cervical|cerebral|abdominal)\s+TC\b")),
    ("ultrasound", re.compile(r"\bUSG\b|\b(?:renal|abdominal|pelvic|transvaginal|breast|thyroid|carotid|scrotal|testicular|obstetric|neck|liver)\s+US\b|\bparasternal\b|\bmid[\s-]?esophageal\b|\btransgastric\b|\bapical\s+(?:two|three|four|five|[2345])[\s-]chamber|\b(?:US|EUS|TEE|TTE|TVUS)\b(?=\s+(?:image|images|imaging|scan|showing|shows|revealed|demonstrat))|\bdoppler\b|\bultras+on\w*|\bultraso\w*|sonogra\w*|\b[ée]chocardiogra\w*|\b[ée]chogra\w*|\becogra\w*|\b[ée]cho[\s-]?doppler|\b(?:2D|2-D|two-dimensional|M-mode|transthoracic|transoesophageal|transesophageal|contrast|stress|fetal|control|follow-up|post-surgery)\s+echo\b|\becho[\s-]?cardiogra\w*|\b(?:EUS|TEE|TTE|UBM)\b|\bultrasound|\bB-mode|\bhypoecho\w*|\bhyperecho\w*|\banechoic", _I)),
    ("xray", re.compile(r"\b(?:XR|AXR|CXR|KUB)\b|radiograph\w*|radiograf\w*|\br[öo]ntgen\w*|\babdomen\s+sans\s+pr[ée]paration|\bIOPA\b|\bperiapical\b|\bradiolucen\w*|\bradiopaque|\bcholangiogra\w*|\bERCP\b|\b(?:antero[\s-]?posterior|postero[\s-]?anterior|AP|PA)\s+view|\bradiogram\w*|\bgastrogra(?:ph|f)+in\b|\b(?:chest|abdomen|abdominal|pelvis|skull)\s+(?:PA|AP)\b|\bcontrast\s+(?:enema|swallow)|\bskiagram\w*|\bx[\s-]?rays?\b|\broentgeno\w*|\bplain\s+film|\bchest\s+film|\bmammogra\w*|\bfluoroscop\w*|\borthopantomogra\w*|\bpanoramic\s+(?:radiograph|view|x)|\bOPG\b|\bbarium\b|\bpanoramic\s+(?:image|view|x)", _I)),
]


# Second tier, used only when no rule above fires: words that do not name a modality but
# imply one (a projection of a bone, echogenicity, a signal intensity, a density in HU, a
# catheter study). Kept apart so that they never override a named modality: "lateral view"
# in an MRI caption stays MRI.
IMPLIED_MODALITY_RULES: list[tuple[str, re.Pattern]] = [
    ("combined", re.compile(r"\bfusion\s+(?:image|imaging)\b.*\b(?:SUV|uptake|tracer)|\b(?:SUV|uptake)\b.*\bfusion\s+(?:image|imaging)", _I)),
    ("angiography", re.compile(r"\b(?:cardiac|coronary|heart)\s+catheteri[sz]ation|\bselective\s+(?:catheteri[sz]ation|injection|(?:right|left)\s+\w+\s+artery\s+injection)"
                               r"|\b\d+°\s*(?:cranial|caudal)\b|\b(?:cranial|caudal)\s+\d+°|\b(?:right|left)\s+anterior\s+oblique\b|\bventriculogra\w*|\b(?:AP|PA|LAO|RAO)\s+(?:cranial|caudal)\b|\b(?:early|middle|mid|late)[\s-]phase\s+(?:ICG|FA|FFA)\b|\b(?:ICG|FA)\s+(?:early|middle|mid|late)[\s-]phase|\b(?:cranial|caudal)\s+(?:view|angulation|projection)", _I)),
    ("pet", re.compile(r"\bSUV(?:max|mean|peak)?\b|\bhypermetabolic|\b(?:68Ga|Ga-68|PSMA|11C-|18F-)", 0)),
    ("mri", re.compile(r"\b(?:hyper|hypo|iso)[\s-]?intens\w*|\bsignal\s+(?:intensity|void|abnormalit\w*|change)|\bhigh[\s-]signal|\blow[\s-]signal"
                       r"|\binversion[\s-]recovery|\b(?:bright|black)[\s-]blood\b|\bfat[\s-](?:sat\w*|suppress\w*)|\b(?:spin|gradient)[\s-]echo|\bSSFP\b|\bproton[\s-]density|\bpond[ée]r[ée]e?\b"
                       r"|\bperfusion[\s-]weighted|\bsusceptibility[\s-]weighted|\bcontrast[\s-]enhanced\s+T[12]|\bpost[\s-]?contrast\s+T[12]|\bT[12]\b(?=.*\b(?:signal|weighted|intens))", _I)),
    ("ct", re.compile(r"\b(?:hypo|hyper|iso)[\s-]?(?:attenuat\w*|dens[ei]\w*)|\bHounsfield|\b\d+\s*HU\b|\b(?:lung|bone|mediastinal|soft[\s-]tissue|brain)\s+window"
                      r"|\bground[\s-]glass|\bscout\s+(?:view|image)|\btopogram|\bdenta[\s-]?scan\w*|\bC\.\s?T\b|\bvolume[\s-]rendered|\bvolume\s+rendering", _I)),
    ("ultrasound", re.compile(r"\b(?:iso|hetero|homo)?[ée]chog[èeé]n\w*|\becho(?:genic\w*|texture|ic|structure)|\bhigh[\s-]echo|\b(?:four|4|two|2|three|3|five|5)[\s-]chamber\s+view"
                              r"|\b(?:short|long)[\s-]axis\s+view|\bsubcostal\s+view|\bparasternale?\b|\bincidence\s+(?:apicale|parasternale|sous[\s-]costale|sous[\s-]xipho\w*)|\b(?:4|quatre)\s+cavit[ée]s|\bnuchal\s+(?:scan|translucency)|\bgestational\s+sac|\bcolou?r[\s-]?flow"
                              r"|\bcolou?r\s+(?:doppler|mode)|\b(?:trans(?:abdominal|vaginal|rectal|perineal|labial)|endovaginal)\s+(?:scan|view|image|approach)|\bM-mode|\bprobe\s+(?:position|placement)|\bacoustic\s+shadow\w*|\bposterior\s+(?:acoustic\s+)?enhancement|\bsonoelasto\w*|\belastogra\w*", _I)),
    ("xray", re.compile(r"\b(?:lateral|frontal|oblique|axillary|mortise|skyline|sunrise|merchant|waters|towne|swimmer'?s?|occlusal|bite[\s-]?wing|lordotic|decubitus|scaphoid|open[\s-]mouth|standing|weight[\s-]bearing|stress|profile|Y)\s+(?:view|projection|film|x)\b"
                        r"|\b(?:view|projection|incidence)\s+(?:de\s+)?(?:profile?|face|lateral|frontal)\b|\bskull\s+view|\bplain\s+(?:abdominal\s+)?(?:film|image)|\bcephalogram\w*"
                        r"|\b(?:pyelogra|urogra|cystogra|cysto-?urethrogra|ur[ée]thro-?cystogra|urethrogra|hysterosalpingogra|sialogra|dacryocystogra|fistulogra|nephrostogra|myelogra|discogra|duodenogra|[oe]sophagogra|defecogra|loopogra|tubogra|cholangio-?ragph|g[ée]nitogra|graphy\b)\w*"
                        r"|\b(?:upper\s+)?(?:GI|gastrointestinal)\s+(?:series|study|contrast\s+study)|\bsmall[\s-]bowel\s+follow|\bfollow[\s-]through|\btransit\s+(?:[oe]so|œso)\w*|\b(?:IVP|IVU|VCUG|HSG|MCU|MCUG)\b|\bcystoure\w*gra\w*"
                        r"|\bradiolog\w*\s+(?:aspect|appearance|union|control|follow[\s-]up|image|view|finding\w*|evaluation|consolidation)|\bRtg\b|\bimage\s+intensifier|\borthopan\w*|\bcontr[ôo]le\s+radiolog\w*|\b(?:during|on|at|after)\s+(?:the\s+)?enema\b|\benema\s+(?:study|examination|image|showing|shows|demonstrat\w*|reveal\w*)|\bclich[ée]\b", _I)),
]


# The implied tier is not used on captions of photographs, micrographs or operative views:
# "frontal view of the face" or "lateral view at surgery" is not a radiograph.
NOT_RADIOLOGY = re.compile(r"photo\w*|micrograph\w*|microscop\w*|histolog\w*|\bstain\w*|\bH&E\b|endoscop\w*|colonoscop\w*|arthroscop\w*|laparoscop\w*"
                           r"|\bintra-?operative\w*|\bclinical\s+(?:picture|image|view|appearance|aspect)|\bfundus\b|\bOCT\b|slit[\s-]lamp|dermoscop\w*"
                           r"|\bgross\b|\bspecimen\w*|\b(?:SEM|TEM)\b|\bof\s+the\s+face\b", _I)


_HYPHENS = str.maketrans({c: "-" for c in "\u2010\u2011\u2012\u2013\u2014\u2212"})


def modality_from_caption(text: str | None) -> str | None:
    """One of MODALITY_CUI's classes, or None when the caption neither names nor implies a modality."""
    if not text:
        return None
    text = text.translate(_HYPHENS)  # "T1‐weighted" with a Unicode hyphen is still T1-weighted
    best: tuple[int, int, str] | None = None  # (position, rule order, class)
    for order, (cls, pattern) in enumerate(MODALITY_RULES):
        m = pattern.search(text)
        if m and (best is None or (m.start(), order) < best[:2]):
            best = (m.start(), order, cls)
    if best is None:  # nothing named: fall back on what the words imply, unless it is not a radiology image
        return None if NOT_RADIOLOGY.search(text) else _first_match(IMPLIED_MODALITY_RULES, text)
    found = best[2]
    # combined / angiography win wherever they appear: they name the whole study
    for cls in ("combined", "angiography"):
        if found != cls and any(c == cls and p.search(text) for c, p in MODALITY_RULES):
            return cls
    return found


# IRMA anatomy main codes as ROCOv2 uses them, with the CUIs of cui_mapping.csv.
REGION_CUI = {
    "head": "C0037303",  # Bone structure of cranium
    "neck": "C0027530",  # Neck
    "chest": "C0817096",  # Chest
    "abdomen": "C0000726",  # Abdomen
    "pelvis": "C0030797",  # Pelvis
    "spine": "C0037949",  # Vertebral column
    "upper_extremity": "C1140618",  # Upper Extremity
    "lower_extremity": "C0023216",  # Lower Extremity
}
REGION_RULES: list[tuple[str, re.Pattern]] = [
    ("spine", re.compile(r"\b(?:spine|spinal|vertebra\w*|lumbar|thoracolumbar|cervical\s+spine|sacrum|coccyx|scoliosis|L[1-5](?:[/-]L?[1-5S]1?)?|C[1-7]|T1[0-2]|T[1-9])\b", _I)),
    ("head", re.compile(r"\b(?:skull|cranial|cranium|head|brain|sinus\w*|orbit\w*|mandib\w*|maxill\w*|dental|teeth|tooth|jaw|temporal\s+bone|facial|sella)\b", _I)),
    ("neck", re.compile(r"\b(?:neck|cervical\s+soft|thyroid|larynx|laryngeal|pharyn\w*|trachea\w*)\b", _I)),
    ("chest", re.compile(r"\b(?:chest|thorax|thoracic|lung\w*|pulmonary|pleura\w*|rib|ribs|mediastin\w*|heart|cardiac|cardiomegaly|pneumo\w*|clavicle)\b", _I)),
    ("abdomen", re.compile(r"\b(?:abdomen|abdominal|bowel|colon\w*|stomach|kidney\w*|renal|liver|hepatic|gallbladder|biliary|pancrea\w*|intestin\w*|ileus|KUB)\b", _I)),
    ("pelvis", re.compile(r"\b(?:pelvis|pelvic|hip|hips|acetabul\w*|sacroiliac|pubic|bladder|uterus|ovar\w*|prostat\w*)\b", _I)),
    ("upper_extremity", re.compile(r"\b(?:hand|hands|wrist|finger\w*|thumb|forearm|elbow|humer\w*|shoulder|radius|ulna\w*|scaphoid|carpal|metacarp\w*|arm|scapula)\b", _I)),
    ("lower_extremity", re.compile(r"\b(?:knee|knees|leg|legs|femur|femoral|tibia\w*|fibula\w*|ankle|foot|feet|toe|toes|calcane\w*|metatars\w*|patella\w*|thigh)\b", _I)),
]

# X-ray projection directions (4 classes).
DIRECTION_CUI = {
    "pa": "C1996865",  # Postero-Anterior (in cui_mapping.csv)
    "ap": "C1999039",  # Anterior-Posterior (in cui_mapping.csv)
    "lateral": "C0205093",  # Lateral (UMLS; not in ROCOv2's cui_mapping.csv)
    "oblique": "C0205131",  # Oblique (UMLS; not in ROCOv2's cui_mapping.csv)
}
DIRECTION_RULES: list[tuple[str, re.Pattern]] = [
    ("pa", re.compile(r"\bPA\b|postero[\s-]?anterior|posterior[\s-]anterior", _I)),
    ("ap", re.compile(r"\bAP\b|antero[\s-]?posterior|anterior[\s-]posterior|\bsupine\s+(?:chest\s+)?(?:radiograph|x)", _I)),
    ("lateral", re.compile(r"\blateral\s+(?:view|projection|radiograph|x[\s-]?ray|film|image|chest)\b|\b(?:left|right)\s+lateral\s+decubitus|\blat\.?\s+view", _I)),
    ("oblique", re.compile(r"\boblique\s+(?:view|projection|radiograph|image)", _I)),
]


def _first_match(rules: list[tuple[str, re.Pattern]], text: str) -> str | None:
    best: tuple[int, int, str] | None = None
    for order, (cls, pattern) in enumerate(rules):
        m = pattern.search(text)
        if m and (best is None or (m.start(), order) < best[:2]):
            best = (m.start(), order, cls)
    return best[2] if best else None


def region_from_caption(text: str | None) -> str | None:
    return _first_match(REGION_RULES, text) if text else None


def direction_from_caption(text: str | None) -> str | None:
    return _first_match(DIRECTION_RULES, text) if text else None


def manual_concepts(text: str | None) -> dict:
    """modality (+ CUI) for any caption; body region and direction only for X-ray, as ROCOv2."""
    modality = modality_from_caption(text)
    out = {"modality": modality, "modality_cui": MODALITY_CUI.get(modality or ""),
           "body_region": None, "body_region_cui": None, "direction": None, "direction_cui": None}
    if modality == "xray":
        region = region_from_caption(text)
        direction = direction_from_caption(text)
        out.update(body_region=region, body_region_cui=REGION_CUI.get(region or ""),
                   direction=direction, direction_cui=DIRECTION_CUI.get(direction or ""))
    out["concepts_manual"] = [c for c in (out["modality_cui"], out["body_region_cui"], out["direction_cui"]) if c]
    return out
