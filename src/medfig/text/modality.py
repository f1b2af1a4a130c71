"""One modality vocabulary and ONE function that reads a figure's modality from its text.

Search (``medfig.search``), curation and ROCOv2 concepts (``medfig.concepts.manual``) and the
exports all call :func:`modality_of`, so a figure carries the same modality everywhere.

Vocabulary (:data:`VOCABULARY`): ROCO's seven radiology classes (angiography, CT, MRI, PET,
ultrasound, X-ray, and combined PET/CT-type studies) plus the non-radiology image classes of
biomedical figures (histology, fluorescence, microscopy, endoscopy, photograph, chart). Each
class has one canonical name, shown to users and stored in the search index ("X-ray", never
"X-RAY" or "xray"), and a key, the class id that the concept tables (CUIs) and dataset columns
use ("xray"). :func:`canonical_modality` maps any spelling of either to the name.

How :func:`modality_of` decides (rules checked against ROCO's own modality CUIs, see
benchmarks/curate_modality.py):
- combined modalities (PET/CT, SPECT/CT, PET/MRI) win over their parts;
- CT/MR angiography ("CTA", "MRA", "CT angiogram") is *angiography*, as ROCO codes it;
- otherwise the modality named FIRST in the text wins ("MRI ... compared with the earlier CT"
  is an MRI; "MRI of the mass. Definitive histology: schwannoma" is an MRI): captions name the
  shown image first and report later findings (a histological diagnosis, a follow-up scan) after;
- names count in French, Spanish, Portuguese, Italian and German too (TDM, IRM, échographie ...);
- when nothing is named, a second tier of cues that imply one radiology modality decides
  (IMPLIED_MODALITY_RULES: "lateral view" of a bone, echogenicity, T2 hyperintensity, Hounsfield
  units ...), except on texts about photographs, micrographs or operative views (NOT_RADIOLOGY).
Text that neither names nor implies a modality gets ``None``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Modality:
    key: str  # class id in concept tables and dataset columns ("xray")
    name: str  # the one spelling users see and the index stores ("X-ray")
    radiology: bool  # one of ROCO's seven classes


VOCABULARY: tuple[Modality, ...] = (
    Modality("angiography", "angiography", True),
    Modality("ct", "CT", True),
    Modality("mri", "MRI", True),
    Modality("pet", "PET", True),
    Modality("ultrasound", "ultrasound", True),
    Modality("xray", "X-ray", True),
    Modality("combined", "PET/CT", True),  # ROCOv2's "PET/CT scan" concept: any hybrid PET/SPECT study
    Modality("histology", "histology", False),
    Modality("fluorescence", "fluorescence", False),
    Modality("microscopy", "microscopy", False),
    Modality("endoscopy", "endoscopy", False),
    Modality("photograph", "photograph", False),
    Modality("chart", "chart", False),
)
BY_KEY = {m.key: m for m in VOCABULARY}
RADIOLOGY_KEYS = frozenset(m.key for m in VOCABULARY if m.radiology)

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


# Non-radiology image classes, named by their own words (no implied tier: a caption that names none
# of them is not guessed into one). They compete with the radiology names above by position.
NON_RADIOLOGY_RULES: list[tuple[str, re.Pattern]] = [
    # "histologically proven" reports a diagnosis, not an image: adverbs are left out
    ("histology", re.compile(r"\bH\s*&\s*E\b|\bIHC\b|histolog(?:y|ic|ical|ies)\b|histopatholog(?:y|ic|ical|ies)\b|h(?:a)?ematoxylin|immunohistochem\w*"
                             r"|\bimmunostain\w*|\b(?:PAS|Masson|trichrome|Giemsa|Ziehl)\b[\w\s-]{0,12}stain", _I)),
    ("fluorescence", re.compile(r"\bGFP\b|\bDAPI\b|immunofluorescen\w*|fluorescen\w*|\bconfocal\b", _I)),
    ("microscopy", re.compile(r"\b(?:SEM|TEM)\b|microscop\w*|micrograph\w*", 0 | _I)),
    ("endoscopy", re.compile(r"\bEGD\b|endoscop\w*|colonoscop\w*|gastroscop\w*|bronchoscop\w*|laparoscop\w*|cystoscop\w*"
                             r"|arthroscop\w*|hysteroscop\w*", _I)),
    ("photograph", re.compile(r"photograph\w*|\bphoto\b|clinical\s+(?:image|picture|photo|appearance)|\bfundus\s+(?:photo\w*|image|picture)|dermoscop\w*"
                              r"|slit[\s-]lamp|\bintra-?operative\s+(?:view|image|photo\w*|finding\w*)", _I)),
    ("chart", re.compile(r"kaplan|survival\s+curve|\bplots?\b|bar\s+(?:graph|chart)|histogram|scatter|box\s?plot|\bgraph\b"
                         r"|flow\s?chart|\bROC\s+curve|forest\s+plot", _I)),
]
NAMED_RULES = MODALITY_RULES + NON_RADIOLOGY_RULES
_HYPHENS = str.maketrans({c: "-" for c in "\u2010\u2011\u2012\u2013\u2014\u2212"})


def _first_match(rules: list[tuple[str, re.Pattern]], text: str) -> str | None:
    best: tuple[int, int, str] | None = None  # (position, rule order, class)
    for order, (cls, pattern) in enumerate(rules):
        m = pattern.search(text)
        if m and (best is None or (m.start(), order) < best[:2]):
            best = (m.start(), order, cls)
    return best[2] if best else None


# A non-radiology word that qualifies the radiology name right after it ("endoscopic ultrasound",
# "fundus fluorescein angiography") names a radiology study: the radiology name wins.
_QUALIFIER_GAP = re.compile(r"[\w-]*(?:\s+[\w-]+){0,2}\s+$")


def modality_key(text: str | None) -> str | None:
    """The class key (``"xray"``) of the modality the text names first (see the module doc), or None."""
    if not text:
        return None
    text = text.translate(_HYPHENS)  # "T1‐weighted" with a Unicode hyphen is still T1-weighted
    found = _first_match(NAMED_RULES, text)
    if found is not None and found not in RADIOLOGY_KEYS:
        start = min(m.start() for c, p in NON_RADIOLOGY_RULES if c == found and (m := p.search(text)))
        radiology = [(m.start(), c) for c, p in MODALITY_RULES if (m := p.search(text, start))]
        if radiology:
            at, cls = min(radiology)
            if _QUALIFIER_GAP.fullmatch(text, start, at):  # at most two more words between, no punctuation
                found = cls
    if found is None:  # nothing named: fall back on what the words imply, unless it is not a radiology image
        return None if NOT_RADIOLOGY.search(text) else _first_match(IMPLIED_MODALITY_RULES, text)
    if found in RADIOLOGY_KEYS:
        # combined / angiography win over another radiology name wherever they appear: they name the whole study
        for cls in ("combined", "angiography"):
            if found != cls and any(c == cls and p.search(text) for c, p in MODALITY_RULES):
                return cls
    return found


def modality_of(text: str | None) -> str | None:
    """THE function: the canonical name (``"X-ray"``, ``"histology"``) of the text's modality, or None."""
    key = modality_key(text)
    return BY_KEY[key].name if key else None


_SPELLINGS = {re.sub(r"[^a-z0-9]", "", s.lower()): m.name for m in VOCABULARY for s in (m.key, m.name)}
_SPELLINGS.update({"cta": "CT", "mr": "MRI", "us": "ultrasound", "ultrasonography": "ultrasound", "sonography": "ultrasound",
                   "angio": "angiography", "radiograph": "X-ray", "radiography": "X-ray", "plainxray": "X-ray",
                   "histopathology": "histology", "pathology": "histology", "petct": "PET/CT", "spectct": "PET/CT",
                   "petmri": "PET/CT", "photo": "photograph", "clinicalphotograph": "photograph", "graph": "chart",
                   "plot": "chart", "micrograph": "microscopy"})


def canonical_modality(spelling: str | None) -> str | None:
    """Any spelling of a class (``xray``, ``X-RAY``, ``X-ray``, ``mr``, ``combined``) as its canonical name;
    an unknown word comes back unchanged (a filter on it then matches nothing)."""
    if not spelling:
        return None
    return _SPELLINGS.get(re.sub(r"[^a-z0-9]", "", spelling.lower()), spelling)
