"""Hand annotations of the pmc_dev_corpus compound-figure gold (built by compound_build_dev_gold.py).

ANNOTATIONS: figure key -> (caption, [(label, [x0, y0, x1, y1] image px, [(first words, last words), ...])]).
Each figure's comment says how its boxes were made: "as proposed" = medfig's splitter box kept after
looking at it; "fix: ..." = what was wrong and how the box was set instead. SINGLE: single-panel figures
(key -> caption), each with why it is single. EXCLUDED: figures left out, with the reason. CLIPS: key -> (PDF
page, clip in PDF points) as `medfig build` cropped it.
"""

# flake8: noqa
# fmt: off
ANNOTATIONS = {}
SINGLE = {}
CLIPS = {}
WHY_SINGLE = {}
# bmc_PMC6215600/Fig1: as proposed; letters inside the description
ANNOTATIONS['bmc_PMC6215600/Fig1'] = ('Germination index values (% of control) for soil contaminated with a diesel oil and b waste engine oil with or without the addition of biosurfactant from endophytic B. pumilus 2A', [
    ('a', [3, 1, 491, 393], [('diesel oil', 'diesel oil')]),
    ('b', [497, 32, 943, 393], [('waste engine oil', 'waste engine oil')]),
])
CLIPS['bmc_PMC6215600/Fig1'] = (6, [61.39, 500.66, 533.17, 697.69])
# bmc_PMC7569564/Fig2: fix: 7 CT tiles -> the caption's two rows (a = top row, b = bottom row)
ANNOTATIONS['bmc_PMC7569564/Fig2'] = ('Chest computed tomographic images of a 28-year-old patient with COVID-19. a, Chest computed tomographic images obtained on Feb 4, 2020, show ground glass opacity in both lungs on day 5 after symptom onset. b, Images taken on Mar 4, 2020 show the absorption of bilateral ground glass opacity after the treatment. COVID-19: Coronavirus disease 2019.', [
    ('a', [21, 13, 448, 150], [('Chest computed tomographic images obtained on Feb 4', 'day 5 after symptom onset.')]),
    ('b', [20, 158, 448, 306], [('Images taken on Mar 4', 'after the treatment.')]),
])
CLIPS['bmc_PMC7569564/Fig2'] = (6, [56.69, 88.61, 290.55, 242.99])
# bmc_PMC7574430/Fig1: fix a: proposal missed the legend and the printed "A" -> read on the grid; b as proposed
ANNOTATIONS['bmc_PMC7574430/Fig1'] = ('The distribution of CRF85_BC from Sichuan in 2019. a Phylogenetic analysis of pol sequences from Sichuan in 2019. The phylogenetic tree was constructed using the approximately-maximum-likelihood method based on the pol region (HXB2: 2, 253 to 3, 312 nt) in FastTree 2.3. The nucleotide substitution mode was GTR + G + I. The subtypes and circulating recombinant forms are marked in different colors. The bootstrap value is indicated at relevant nodes. HIV-1 group O was chosen as an out-group in the rooted tree. The reference sequences from the Los Alamos HIV sequence database (http://hiv-web.lanl.gov/content/index). b The demographic distribution of CRF85_BC in Sichuan. Number of reported cases in different prefectures in Sichuan based on the molecular epidemiological surveillance of Sichuan in 2019', [
    ('a', [140, 55, 540, 332], [('Phylogenetic analysis of pol sequences', 'rooted tree.')]),
    ('b', [142, 356, 823, 624], [('The demographic distribution of CRF85_BC', 'surveillance of Sichuan in 2019')]),
])
CLIPS['bmc_PMC7574430/Fig1'] = (2, [56.69, 350.9, 538.58, 663.08])
# bmc_PMC7574430/Fig2: as proposed
ANNOTATIONS['bmc_PMC7574430/Fig2'] = ('Prevalence and demographic history of CRF85_BC in Sichuan. a The Bayesian skyline plot and Bayesian skygrid analysis of CRF85_BC. The Bayesian skyline plot and Bayesian skygrid analysis estimated the past population dynamics of CRF85_BC. The thick solid line in the plot represents the median estimate, and the shaded region represents the 95% HPD credible region. b The MCC tree of CRFF85_BC. The MCC tree was constructed based a data set of 148 CRF85_BC pol region (HXB2: 2, 253 to 3, 312 nt) using Bayesian MCMC analysis implemented in BEAST v 1.8.4. The analysis was performed using an uncorrelated lognormal relaxed clock model in GTR + I + G4 nucleotide substitution model under an exponential coalescent model. The MCMC analysis was run for 200 million generations, with sampling every 20,000 generations. The different color branches indicate the strains from different areas, respectively. Sichuan-CD (Chengdu), Sichuan-LS (Leshan), Sichuan-GA (Guangan), Sichuan-GY (Guangyuan), Sichuan-LZ (Luzhou), Sichuan-MY (Mianyang), Sichuan-MS (Meishan), Sichuan-SN (Suining), Sichuan-YB (Yibin)', [
    ('a', [1, 1, 956, 615], [('The Bayesian skyline plot and Bayesian skygrid analysis of CRF85_BC', '95% HPD credible region.')]),
    ('b', [1, 634, 950, 1167], [('The MCC tree of CRFF85_BC', 'Sichuan-YB (Yibin)')]),
])
CLIPS['bmc_PMC7574430/Fig2'] = (4, [56.69, 88.61, 538.58, 672.43])
# dove_PMC4708241/f2-dddt-10-155: as proposed; (C) holds the NMR spectrum (a) and the structure (b) drawn inside it: one panel
ANNOTATIONS['dove_PMC4708241/f2-dddt-10-155'] = ('Characterization of isolated compound of Ocimum sanctum (quercetol) by (A) UV spectra, (B) FTIR spectra, (C) (a) NMR spectra, (b) structure of quercetol, and (D) mass spectra. Abbreviations: FTIR, Fourier transform infrared spectroscopy; NMR, nuclear magnetic resonance; UV, ultra violet; ms, mass spectra.', [
    ('a', [0, 0, 700, 278], [('UV spectra', 'UV spectra')]),
    ('b', [3, 278, 691, 651], [('FTIR spectra', 'FTIR spectra')]),
    ('c', [3, 651, 699, 920], [('(a) NMR spectra, (b) structure of quercetol', '(a) NMR spectra, (b) structure of quercetol')]),
    ('d', [3, 920, 699, 1266], [('mass spectra', 'mass spectra')]),
])
CLIPS['dove_PMC4708241/f2-dddt-10-155'] = (2, [139.34, 54.95, 489.65, 691.43])
# dove_PMC4708241/f3-dddt-10-155: as proposed
ANNOTATIONS['dove_PMC4708241/f3-dddt-10-155'] = ('Morphology of HepG2 cells. Notes: (A) Control, (B) at 300 μg/mL of quercetol, and (C) at 600 μg/mL of quercetol for 24 hours.', [
    ('a', [0, 0, 453, 276], [('Control', 'Control')]),
    ('b', [459, 0, 912, 276], [('at 300 μg/mL of quercetol', 'at 300 μg/mL of quercetol')]),
    ('c', [231, 281, 689, 550], [('at 600 μg/mL of quercetol', 'at 600 μg/mL of quercetol')]),
])
CLIPS['dove_PMC4708241/f3-dddt-10-155'] = (3, [69.37, 431.43, 525.63, 706.69])
# dove_PMC4708241/f4-dddt-10-155: fix: the splitter cut each bar chart into its bars (8 boxes); two charts read on the grid
ANNOTATIONS['dove_PMC4708241/f4-dddt-10-155'] = ('Toxic effect of quercetol in HepG2 cells as determined by (A) MTT and (B) NRU tests. Notes: Data are expressed as percentage viability of cells exposed to quercetol relative to control cells and mean ± SE of three experiments. *P<0.05 vs control, using one-way ANOVA. Abbreviations: ANOVA, analysis of variance; MTT, 3-(4,5-dimethylthiazol-2-yl)-2,5-diphenyltetrazolium bromide; NRU, neutral red uptake; SE, standard error.', [
    ('a', [0, 0, 591, 335], [('MTT', 'MTT')]),
    ('b', [0, 335, 591, 602], [('NRU tests', 'NRU tests')]),
])
CLIPS['dove_PMC4708241/f4-dddt-10-155'] = (4, [166.64, 54.21, 462.21, 354.88])
# dove_PMC4708241/f5-dddt-10-155: fix: Ai/Aii/Aiii are the three columns (two photos each, a1/a2 rule -> label a); B chart box widened to its axes on the grid
ANNOTATIONS['dove_PMC4708241/f5-dddt-10-155'] = ('Impact of quercetol on the MMP of HepG2 cells. Notes: Panel (Ai) shows green fluorescence (JC-1 monomer) only, panel (Aii) shows red fluorescence (JC-1 aggregate) only, and the panel (Aiii) shows merged (green–red fluorescence). (B) % MMP ratio. Data are expressed as the mean ± SE of three experiments. *P<0.05 vs control, using one-way ANOVA. Abbreviations: ANOVA, analysis of variance; MPP, mitochondrial membrane potential; SE, standard error.', [
    ('a', [45, 0, 294, 295], [('shows green fluorescence', 'only,')]),
    ('a', [301, 0, 552, 295], [('shows red fluorescence', 'aggregate) only')]),
    ('a', [558, 0, 807, 295], [('shows merged', 'fluorescence)')]),
    ('b', [160, 340, 700, 558], [('% MMP ratio.', '% MMP ratio.')]),
])
CLIPS['dove_PMC4708241/f5-dddt-10-155'] = (4, [124.26, 414.57, 528.24, 693.58])
# dove_PMC4708241/f6-dddt-10-155: as proposed
ANNOTATIONS['dove_PMC4708241/f6-dddt-10-155'] = ('Induction of condensed chromosome and caspase-3 enzyme activity in HepG2 cells after exposure to quercetol. Notes: (A) Control, (B) at 300 μg/mL of quercetol for 24 hours (arrows indicate condensed chromosome), and (C) Caspase-3 activity. Each value represents the mean ± SE of three experiments. *P<0.05 vs control, using one-way ANOVA. Abbreviations: ANOVA, analysis of variance; SE, standard error.', [
    ('a', [0, 0, 388, 226], [('Control', 'Control')]),
    ('b', [393, 0, 780, 226], [('at 300 μg/mL of quercetol for 24 hours', '(arrows indicate condensed chromosome)')]),
    ('c', [34, 242, 724, 565], [('Caspase-3 activity.', 'Caspase-3 activity.')]),
])
CLIPS['dove_PMC4708241/f6-dddt-10-155'] = (5, [102.45, 53.79, 492.6, 337.71])
# dove_PMC4708241/f7-dddt-10-155: as proposed
ANNOTATIONS['dove_PMC4708241/f7-dddt-10-155'] = ('Fragmentation of DNA in HepG2 cells due to 24 hour quercetol exposure. Notes: (A) Untreated cell, (B) at 100 μg/mL of quercetol, (C) at 300 μg/mL of quercetol, (D) percentage tail DNA. Each value represents the mean ± SE of triplicate tests. *P<0.05 vs control, using one-way ANOVA. Abbreviations: ANOVA, analysis of variance; SE, standard error.', [
    ('a', [0, 0, 342, 206], [('Untreated cell', 'Untreated cell')]),
    ('b', [361, 0, 704, 206], [('at 100 μg/mL of quercetol', 'at 100 μg/mL of quercetol')]),
    ('c', [0, 225, 342, 431], [('at 300 μg/mL of quercetol', 'at 300 μg/mL of quercetol')]),
    ('d', [371, 231, 758, 460], [('percentage tail DNA.', 'percentage tail DNA.')]),
])
CLIPS['dove_PMC4708241/f7-dddt-10-155'] = (6, [118.27, 53.75, 510.82, 285.48])
# dove_PMC5965372/f3-dddt-12-1303: as proposed
ANNOTATIONS['dove_PMC5965372/f3-dddt-12-1303'] = ('Vicenin-2 inhibits the expression and activation of Wnt/β-catenin signaling. Notes: (A) Western blot analysis of Wnt/β-catenin signaling proteins such as non-p-β-catenin, total-β-catenin, and cyclin D1. (B) The densitometric quantification of respective Western blot by ImageJ software (NIH). “*” denotes the statistical difference at P<0.05. (C) The nuclear localization of non-p-β-catenin was analyzed by a confocal microscope. Vicenin-2 treatment time dependently reduces the nuclear accumulation of non-p-β-catenin.', [
    ('a', [0, 0, 359, 288], [('Western blot analysis of Wnt', 'cyclin D1.')]),
    ('b', [2, 290, 446, 532], [('The densitometric quantification of respective Western blot', '(NIH).')]),
    ('c', [458, 83, 866, 474], [('The nuclear localization', 'nuclear accumulation of non-p-β-catenin.')]),
])
CLIPS['dove_PMC5965372/f3-dddt-12-1303'] = (3, [81.09, 426.21, 513.95, 692.51])
# dove_PMC5965372/f4-dddt-12-1303: boxes as proposed, labels fixed: C is the top-right blot, B the bottom-left chart
ANNOTATIONS['dove_PMC5965372/f4-dddt-12-1303'] = ('Effect of Vicenin-2 on the expression of p-GSK-3β. Notes: (A) Western blot expressions of p-GSK-3β and T-GSK-3β. (B) The densitometric quantification of p-GSK-3β and T-GSK-3β by ImageJ software (NIH). “*” denotes the statistical difference at P<0.05. (C) To confirm the inhibition of non-p-β-catenin by Vicenin-2 was mediated through GSK-3β, the cells were incubated with Vicenin-2 and LiCl (GSK-3β inhibitor). (D) The densitometric quantification of non-p-β-catenin by ImageJ software (NIH). “*” denotes the statistical difference at P<0.05. Abbreviations: GSK, glycogen synthase kinase; LiCl, lithium chloride.', [
    ('a', [0, 0, 382, 220], [('Western blot expressions of p-GSK-3β', 'T-GSK-3β.')]),
    ('c', [517, 0, 877, 221], [('To confirm the inhibition', '(GSK-3β inhibitor).')]),
    ('b', [2, 240, 482, 534], [('The densitometric quantification of p-GSK-3β', '(NIH).')]),
    ('d', [517, 240, 837, 532], [('The densitometric quantification of non-p-β-catenin', '(NIH).')]),
])
CLIPS['dove_PMC5965372/f4-dddt-12-1303'] = (4, [95.0, 415.93, 534.01, 683.9])
# dove_PMC5965372/f5-dddt-12-1303: as proposed
ANNOTATIONS['dove_PMC5965372/f5-dddt-12-1303'] = ('Vicenin-2 arrests the cell cycle at the G2M phase. Notes: (A) The effect of Vicenin-2 on cell cycle distribution was analyzed by flow cytometry. (B) The experiment was done in triplicate and is represented as a graph. “*” denotes the statistical difference at P<0.05.', [
    ('a', [0, 0, 967, 206], [('The effect of Vicenin-2 on cell cycle distribution', 'flow cytometry.')]),
    ('b', [226, 240, 748, 534], [('The experiment was done in triplicate', 'as a graph.')]),
])
CLIPS['dove_PMC5965372/f5-dddt-12-1303'] = (5, [54.42, 54.95, 538.23, 325.01])
# dove_PMC5965372/f6-dddt-12-1303: as proposed
ANNOTATIONS['dove_PMC5965372/f6-dddt-12-1303'] = ('Vicenin-2 induces apoptosis in HT-29 cells by modulating the expressions of Cytochrome C, Bax, Bcl-2, and caspase-3. Notes: (A) Vicenin-2 induces apoptosis by increasing the Annexin V-FITC expression confirmed by flow cytometry. (B) Western blot analysis of Cytochrome C, Bax, Bcl-2, and caspase-3. (C) The densitometric quantification of respective Western blot by ImageJ software (NIH). “*” denotes the statistical difference at P<0.05.', [
    ('a', [0, 0, 843, 209], [('Vicenin-2 induces apoptosis by increasing', 'flow cytometry.')]),
    ('b', [3, 236, 391, 554], [('Western blot analysis of Cytochrome C', 'caspase-3.')]),
    ('c', [391, 236, 860, 554], [('The densitometric quantification of respective Western blot', '(NIH).')]),
])
CLIPS['dove_PMC5965372/f6-dddt-12-1303'] = (5, [82.74, 393.28, 512.35, 670.72])
# elsevier_PMC3958920/f0010: as proposed
ANNOTATIONS['elsevier_PMC3958920/f0010'] = ('(A) Enzyme activities of cell-free extracts prepared from A. brasilense cells grown on several carbon sources. Values are the means ± SD, n = 2. Light- and dark-gray bars in Pyr2C reductase indicate NADPH- and NADH-dependent activities, respectively. (B) The transcriptional effect of carbon source on AbLhpI gene. Total RNAs (4 μg per lane) were isolated from the A. brasiliense cells grown on the indicated carbon sources.', [
    ('a', [1, 7, 562, 493], [('Enzyme activities of cell-free extracts', 'NADH-dependent activities, respectively.')]),
    ('b', [562, 263, 828, 461], [('The transcriptional effect of carbon source', 'indicated carbon sources.')]),
])
CLIPS['elsevier_PMC3958920/f0010'] = (3, [59.53, 66.24, 546.53, 313.94])
# elsevier_PMC3958920/f0015: fix: D is two charts (left and right panel) -> union of proposals 3 and 4
ANNOTATIONS['elsevier_PMC3958920/f0015'] = ('Enzymatic properties of Pyr2C reductase. (A) Effect of pH on the activity. Left panel, PaLhpD; middle panel, AbLhpI; right panel, CpLhpI. 50 mM acetate-NaOH (pH 4.0–6.0) (square), 50 mM potassium phosphate (pH 6.0–8.5) (circle), 50 mM Tris–HCl (pH 7.0–9.0) (triangle) for the reduction of Pyr2C (left axis), and 50 mM glycine–NaOH (diamond) for the oxidization of l-proline (right axis), instead of 50 mM Tris-HCl (pH 8.0) under standard assay conditions. (B) Substrate specificity of NADP+-dependent oxidization reaction. PaLhpD, red bar; AbLhpI, blue bar; CpLhpI, yellow bar. The assay was performed with standard assay solution containing the indicated substrate (10 mM). Relative values were expressed as percents of the values obtained in l-proline (means ± SD, n = 3). (C) Zymogram staining. Five micrograms of each of purified protein (left panel, AbLhpI; middle panel, CpLhpI; right panel, PaLhpD) was applied on 10% (w/v) gel. After electrophoresis, the gel was soaked in staining solution in the presence of substrates and coenzymes as follows (each of 10 mM): lane 1, l-proline and NADP+; lane 2, l-proline and NAD+; lane 3, l-pipecolate and NADP+. (D) Catalytic efficiency (kcat/Km) of NADPH-dependent reduction (left panel) and NADP+-dependent oxidization reactions (right panel). Asterisks indicate no (or trace) activity. (For interpretation of the references to color in this figure legend, the reader is referred to the web version of this article.)', [
    ('a', [6, 7, 750, 298], [('Effect of pH on the activity.', 'under standard assay conditions.')]),
    ('b', [7, 326, 428, 646], [('Substrate specificity of NADP+-dependent', 'obtained in l-proline')]),
    ('c', [455, 326, 794, 494], [('Zymogram staining.', 'l-pipecolate and NADP+.')]),
    ('d', [0, 674, 961, 975], [('Catalytic efficiency (kcat/Km)', 'Asterisks indicate no (or trace) activity.')]),
])
CLIPS['elsevier_PMC3958920/f0015'] = (5, [62.36, 66.24, 543.36, 553.52])
# elsevier_PMC3958920/f0020: fix: four stacked HPLC traces (letters at the right) the splitter did not cut: read on the grid
ANNOTATIONS['elsevier_PMC3958920/f0020'] = ('HPLC analysis of the reaction products from T3LHyp by AbLhpH and AbLhpI. (A) Authentic T3LHyp. (B) Reaction product by AbLhpH. (C) Reaction product by AbLhpH and AbLhpI in presence of NADPH. (D) Authentic l-proline. Similar results were obtained when CpLhpH and CpLhpI were used as alternatives (data not shown).', [
    ('a', [0, 0, 296, 114], [('Authentic T3LHyp.', 'Authentic T3LHyp.')]),
    ('b', [0, 114, 296, 229], [('Reaction product by AbLhpH.', 'Reaction product by AbLhpH.')]),
    ('c', [0, 229, 296, 346], [('Reaction product by AbLhpH and AbLhpI', 'presence of NADPH.')]),
    ('d', [0, 346, 296, 516], [('Authentic l-proline.', 'Authentic l-proline.')]),
])
CLIPS['elsevier_PMC3958920/f0020'] = (6, [84.34, 67.34, 232.33, 325.34])
# elsevier_PMC3958920/f0025: as proposed
ANNOTATIONS['elsevier_PMC3958920/f0025'] = ('(A) Phylogenetic tree of OCD/μ-crystallin protein family. The number on each branch indicates the bootstrap value. Proteins with asterisks were used for B. (B) Partial multiple sequence alignment of deduced amino acid sequences of Pyr2C reductases. Binding sites for a carboxyl group of substrate, lysine, arginine and aspartate, are shaded in green, yellow and light-green, respectively. Aspartate and glutamate residues, related to the cyclization by OCD and LCD, are shaded in red and blue, respectively. Amino acid residues interacting with 2′- and 3′-functional groups in the ribosyl moiety of NAD+(H) and NADP+(H) are shaded in pink. Coenzyme-binding motif of Rossmann-fold are shown as white letters in black boxes. Gray-shaded letters indicate highly conserved amino acid residues. (C) Schematic diagram showing the interactions of l-ornithine, Pyr2C, and nearby residues in OCD. Color of residues correspond to B. (For interpretation of the references to color in this figure legend, the reader is referred to the web version of this article.)', [
    ('a', [0, 2, 963, 663], [('Phylogenetic tree of OCD', 'Proteins with asterisks were used for B.')]),
    ('b', [1, 693, 921, 975], [('Partial multiple sequence alignment', 'white letters in black boxes.')]),
    ('c', [0, 997, 580, 1111], [('Schematic diagram showing the interactions', 'Color of residues correspond to B.')]),
])
CLIPS['elsevier_PMC3958920/f0025'] = (7, [59.78, 66.93, 541.67, 622.37])
# elsevier_PMC5988028/f0005: top two as proposed; AQP3 chart widened to its axis and title on the grid; caption names no panel: boxes only
ANNOTATIONS['elsevier_PMC5988028/f0005'] = ('Gene expression levels in fibroblast cells after exposure to holy basil extract. The mRNA expression levels were normalized to GAPDH expression, and the relative gene expression levels in the cells at 2, 4, 8, and 24 h after initiation of extract exposure were compared to the corresponding levels for unexposed cells, whose levels were defined as 1.0.', [
    (None, [0, 0, 346, 238], []),
    (None, [373, 0, 719, 238], []),
    (None, [215, 261, 569, 500], []),
])
CLIPS['elsevier_PMC5988028/f0005'] = (4, [51.36, 67.27, 411.0, 317.49])
# elsevier_PMC5988028/f0010: P0 kept; b widened left to its axis title, KRT1 chart widened on the grid; boxes only
ANNOTATIONS['elsevier_PMC5988028/f0010'] = ('Gene expression levels in keratinocyte cells after exposure to holy basil extract. The mRNA expression levels were normalized to GAPDH expression, and the relative gene expression levels in the cells at 2, 4, 8, and 24 h after initiation of extract exposure were compared to the corresponding levels for unexposed cells, whose levels were defined as 1.0. N.D. = not detected.', [
    (None, [1, 1, 350, 238], []),
    (None, [365, 0, 719, 240], []),
    (None, [198, 261, 543, 503], []),
])
CLIPS['elsevier_PMC5988028/f0010'] = (7, [57.03, 67.29, 416.66, 318.75])
# elsevier_PMC5988028/f0015: as proposed; boxes only
ANNOTATIONS['elsevier_PMC5988028/f0015'] = ('Gene expression levels in fibroblast cells after exposure to malabar nut extract. The mRNA expression levels were normalized to GAPDH expression, and the relative gene expression levels in the cells at 2, 4, 8, and 24 h after initiation of extract exposure were compared to the corresponding levels for unexposed cells, whose levels were defined as 1.0.', [
    (None, [0, 0, 346, 240], []),
    (None, [371, 0, 719, 240], []),
    (None, [186, 277, 538, 517], []),
])
CLIPS['elsevier_PMC5988028/f0015'] = (10, [51.4, 67.28, 410.95, 327.04])
# elsevier_PMC5988028/f0020: fix: proposals were the plot areas without axis titles, HYAL2 cut in two: the 2 x 4 chart grid read on the grid; boxes only
ANNOTATIONS['elsevier_PMC5988028/f0020'] = ('Gene expression levels in keratinocyte cells after exposure to malabar nut extract. The mRNA expression levels were normalized to GAPDH expression, and the relative gene expression levels in the cells at 2, 4, 8, and 24 h after initiation of extract exposure were compared to the corresponding levels for unexposed cells, whose levels were defined as 1.0.', [
    (None, [0, 0, 356, 260], []),
    (None, [360, 0, 719, 260], []),
    (None, [0, 260, 356, 525], []),
    (None, [360, 260, 719, 525], []),
    (None, [0, 525, 356, 790], []),
    (None, [360, 525, 719, 790], []),
    (None, [0, 790, 356, 1025], []),
    (None, [360, 790, 719, 1025], []),
])
CLIPS['elsevier_PMC5988028/f0020'] = (11, [57.06, 67.27, 416.62, 579.96])
# elsevier_PMC5988028/f0025: as proposed; boxes only
ANNOTATIONS['elsevier_PMC5988028/f0025'] = ('Gene expression levels in fibroblast cells after exposure to emblic myrobalan extract. The mRNA expression levels were normalized to GAPDH expression, and the relative gene expression levels in the cells at 2, 4, 8, and 24 h after initiation of extract exposure were compared to the corresponding levels for unexposed cells, whose levels were defined as 1.0.', [
    (None, [0, 0, 345, 235], []),
    (None, [0, 261, 344, 498], []),
    (None, [0, 521, 345, 756], []),
    (None, [0, 782, 345, 1016], []),
    (None, [372, 0, 718, 235], []),
    (None, [372, 261, 719, 498], []),
    (None, [372, 523, 719, 756], []),
    (None, [380, 782, 719, 1016], []),
])
CLIPS['elsevier_PMC5988028/f0025'] = (14, [51.4, 67.27, 410.96, 576.33])
# elsevier_PMC5988028/f0030: left column as proposed; right column rows 2-4 were plot areas only: widened to the cells like the left column; boxes only
ANNOTATIONS['elsevier_PMC5988028/f0030'] = ('Gene expression levels in keratinocyte cells after exposure to emblic myrobalan extract. The mRNA expression levels were normalized to GAPDH expression, and the relative gene expression levels in the cells at 2, 4, 8, and 24 h after initiation of extract exposure were compared to the corresponding levels for unexposed cells, whose levels were defined as 1.0.', [
    (None, [0, 0, 339, 237], []),
    (None, [0, 264, 340, 501], []),
    (None, [0, 526, 340, 765], []),
    (None, [0, 789, 340, 1027], []),
    (None, [371, 0, 718, 237], []),
    (None, [371, 264, 718, 501], []),
    (None, [371, 526, 718, 765], []),
    (None, [371, 789, 718, 1027], []),
])
CLIPS['elsevier_PMC5988028/f0030'] = (17, [56.99, 67.28, 416.71, 581.67])
# elsevier_PMC5991880/fig3: fix: the splitter boxed single structures (4 boxes); a) is the left scheme with its products, b) the top-right scheme: read on the grid
ANNOTATIONS['elsevier_PMC5991880/fig3'] = ('Iridoid synthase from C. roseus in alternate biochemical mechanism of iridoid biosynthesis. a) The synthase uses monoterpene 10 oxogeranial as substrate and NAD(P)H reduction step for cyclization, whereas b) monoterpene cyclases uses geranyl diphosphate as substrate in the usual process of cyclization.', [
    ('a', [0, 0, 620, 491], [('The synthase uses monoterpene 10 oxogeranial', 'reduction step for cyclization')]),
    ('b', [470, 0, 709, 190], [('monoterpene cyclases uses geranyl diphosphate', 'usual process of cyclization.')]),
])
CLIPS['elsevier_PMC5991880/fig3'] = (5, [115.6, 70.83, 469.92, 316.74])
# elsevier_PMC5996253/f0005: as proposed; caption names no panel (one chart per plant, named in the image only): boxes only
ANNOTATIONS['elsevier_PMC5996253/f0005'] = ('Cell viability of HEKn detected by calcein assay. Cells were treated with various concentrations (0–0.3%) of each plant extracts for 24 h, and percent cell viability was calculated relative to that of untreated controls. The values are shown as the mean±SE of three independent experiments.', [
    (None, [4, 5, 370, 252], []),
    (None, [390, 6, 756, 252], []),
    (None, [4, 328, 369, 606], []),
    (None, [390, 305, 754, 606], []),
])
CLIPS['elsevier_PMC5996253/f0005'] = (2, [46.95, 65.38, 425.13, 368.3])
# elsevier_PMC7326430/fig1: as proposed; letters A-C top row, D-F bottom row (top-right corners)
ANNOTATIONS['elsevier_PMC7326430/fig1'] = ('The effects of varying levels of containment effectiveness upon the expected subsequent trajectories of a SARS-CoV-2 epidemic. It was assumed that the epidemic had reached an incidence rate of 10,000 new infections per week at the point when a suite of presumptive, population-wide preventative behavioural interventions (often referred to as lock down if enforced) were introduced, with an initial pre-intervention reproductive number of 4 new infections per existing infection (R0 = 4.0). A and D: Controlled reproductive numbers (Rc) expressed as a function of either (A) overall reduction of transmission rate (1-Rc/R0) or (D) the mean effective protective coverage of individuals with interventions to prevent exposure behaviours (Cp). B, C, D and E: Controlled reproduction numbers (Rc) and incidence rate trajectories expressed as functions of either (B and C) overall reduction of transmission rate (1-Rc/R0) or (E and F) effective protective coverage of individuals with interventions to prevent exposure behaviours (Cp). Panels C and F are identical to panels B and E, respectively, except that the vertical axis is expressed on a logarithmic scale.', [
    ('a', [1, 1, 341, 227], [('Controlled reproductive numbers (Rc) expressed as a function of either', 'Controlled reproductive numbers (Rc) expressed as a function of either'), ('overall reduction of transmission rate', '(1-Rc/R0)')]),
    ('b', [348, 2, 642, 227], [('Controlled reproduction numbers (Rc) and incidence', 'expressed as functions of either'), ('2#overall reduction of transmission rate', '(1-Rc/R0)')]),
    ('c', [648, 5, 905, 227], [('Controlled reproduction numbers (Rc) and incidence', 'expressed as functions of either'), ('2#overall reduction of transmission rate', '(1-Rc/R0)'), ('Panels C and F are identical', 'logarithmic scale.')]),
    ('d', [1, 237, 341, 485], [('Controlled reproductive numbers (Rc) expressed as a function of either', 'Controlled reproductive numbers (Rc) expressed as a function of either'), ('the mean effective protective coverage', 'exposure behaviours (Cp)')]),
    ('e', [343, 237, 642, 485], [('Controlled reproduction numbers (Rc) and incidence', 'expressed as functions of either'), ('2#effective protective coverage of individuals', 'exposure behaviours (Cp)')]),
    ('f', [645, 240, 908, 485], [('Controlled reproduction numbers (Rc) and incidence', 'expressed as functions of either'), ('2#effective protective coverage of individuals', 'exposure behaviours (Cp)'), ('Panels C and F are identical', 'logarithmic scale.')]),
])
CLIPS['elsevier_PMC7326430/fig1'] = (1, [43.2, 369.35, 496.8, 612.11])
# elsevier_PMC7564522/fig0001: fix: the splitter cut each column into its four country charts (8 boxes); (A) is the left column, (B) the right one; the legend under both is shared
ANNOTATIONS['elsevier_PMC7564522/fig0001'] = ('Potential changes in HIV incidence (A) and deaths (B) following a hypothetical three-month disruption of HIV services. Orange shading indicates the period during which the three-month disruptions occur. Baseline (no COVID-19 epidemic occurs) = dark blue line; Reduced contact rates = orange line; No new VMMCs = yellow line; Viral suppression decreases by 10% = purple line; No new ART initiations = green line; Condom use reduced by 50% = light blue line; Interruption in ART for 40% of individuals = dark red line. Panel insets in (A) show a magnified view of HIV incidence patterns from 2020.5 to 2021.', [
    ('a', [0, 0, 437, 672], [('HIV incidence', 'HIV incidence'), ('Panel insets in (A)', 'from 2020.5 to 2021.')]),
    ('b', [437, 0, 816, 672], [('deaths', 'deaths')]),
])
CLIPS['elsevier_PMC7564522/fig0001'] = (3, [88.72, 182.21, 496.7, 557.71])
# elsevier_PMC7564522/fig0002: as proposed (reading order: South Africa, Malawi / Zimbabwe, Uganda)
ANNOTATIONS['elsevier_PMC7564522/fig0002'] = ('Projected direct and indirect deaths over time for South Africa (A), Malawi (B), Zimbabwe (C), and Uganda (D), under different assumptions about the COVID-19 epidemic in Walker et al. and the impact on HIV services (Table 1), for a three-month service interruption. The purple bars for COVID-19 deaths represent estimates from Walker et al. The whiskers represent estimates from Cabore et al. and Pearson et al. for an in an unmitigated epidemic, and Pearson et al. only for an epidemic with social distancing and enhanced social distancing from Table 2; no estimates from Cabore et al. were available for these scenarios [11,12]. Deaths averted by implementing social distancing and enhanced social distancing are from Walker et al. Yellow bars represent HIV deaths in the ‘interruption of supply’ scenario; red bars represent HIV deaths in the ‘managed disruption’ scenario; blue bars represent HIV deaths in the ‘managed pause’ scenario (all from Table 1). Confidence intervals for the HIV mortality scenarios represent uncertainty in the mortality risk for individuals with interrupted ART, ranging from a mean monthly mortality risk of 0.10% to 0.44%.', [
    ('a', [1, 4, 484, 350], [('South Africa', 'South Africa')]),
    ('b', [527, 0, 1004, 350], [('Malawi', 'Malawi')]),
    ('c', [1, 377, 484, 728], [('Zimbabwe', 'Zimbabwe')]),
    ('d', [527, 380, 1005, 728], [('Uganda', 'Uganda')]),
])
CLIPS['elsevier_PMC7564522/fig0002'] = (4, [44.56, 55.67, 560.56, 455.12])
# elsevier_PMC7564522/fig0003: fix: proposals 3 and 4 are the two shared legends, not panels; A-C as proposed
ANNOTATIONS['elsevier_PMC7564522/fig0003'] = ('The excess HIV deaths over 5 years caused by the disruptions, as a percentage of the total number of HIV deaths expected without the disruptions. Results give the mean across the four countries considered – South Africa, Malawi, Zimbabwe, and Uganda. Plots shown give this metric with respect to the duration of interruption in months (vertical axes) and the proportion of people living with HIV (PLHIV) on antiretroviral therapy (ART) affected by the interruption (horizontal axes). The panels show the results under three different assumptions about the average net monthly mortality risk for those experience an interruption in ART supply: (A) 0.10%, (B) 0.24%, and (C) 0.44%. Contour lines show where the total number of deaths is greater than the deaths expected for COVID-19 epidemics, averaged across the four countries, for three different models of COVID-19 (Cabore et al., [12] Walker et al., [3] and Pearson et al. [11]). Light red lines correspond to the mean number of COVID-19 deaths in the four countries in Cabore et al.; orange and blue lines correspond to the mean number of COVID-19 deaths with enhanced social distancing in the four countries in Walker et al. and Pearson et al., respectively. Dashed lines correspond to the base case scenario of 40% of individuals experiencing a three-month interruption of ART.', [
    ('a', [58, 18, 582, 163], [('0.10%', '0.10%')]),
    ('b', [58, 217, 582, 362], [('0.24%', '0.24%')]),
    ('c', [58, 417, 582, 561], [('0.44%', '0.44%')]),
])
CLIPS['elsevier_PMC7564522/fig0003'] = (5, [88.72, 55.67, 496.72, 346.48])
# frontiers_PMC4558530/F2: as proposed
ANNOTATIONS['frontiers_PMC4558530/F2'] = ('(A) Minimum inhibitory concentration (MIC) and minimum fungicidal concentration (MFC) of OSEO and nystatin were determined by micro-well dilution method. (B) Effect of different concentrations of OSEO on spore germination of Fusarium graminearum. Data were analyzed applying a one-way ANOVA followed by the Tukey’s test (n = 6) and p-value <0.05.', [
    ('a', [4, 4, 294, 214], [('Minimum inhibitory concentration (MIC)', 'micro-well dilution method.')]),
    ('b', [294, 4, 596, 218], [('Effect of different concentrations of OSEO on spore germination', 'Fusarium graminearum.')]),
])
CLIPS['frontiers_PMC4558530/F2'] = (6, [147.49, 69.42, 446.49, 180.71])
# frontiers_PMC4558530/F3: as proposed
ANNOTATIONS['frontiers_PMC4558530/F3'] = ('Scanning electron microphotographs of hyphae and spores of F. graminearum grown on SDA with or without OSEO during 7 days of incubation at 28°C. (A) Hyphae without OSEO (Control), (B) Hyphae with OSEO at a concentration of 1250 μg/mL, (C) Hyphae with OSEO at a concentration of 1800 μg/mL (D) Spores without OSEO (Control), (E) Spores with OSEO at a concentration of 1250 μg/mL, (F) Spores with OSEO at a concentration of 1800 μg/mL.', [
    ('a', [1, 2, 253, 233], [('Hyphae without OSEO (Control)', 'Hyphae without OSEO (Control)')]),
    ('b', [259, 2, 510, 234], [('Hyphae with OSEO at a concentration of 1250', 'μg/mL')]),
    ('c', [515, 2, 766, 234], [('Hyphae with OSEO at a concentration of 1800', 'μg/mL')]),
    ('d', [1, 245, 252, 477], [('Spores without OSEO (Control)', 'Spores without OSEO (Control)')]),
    ('e', [259, 245, 510, 477], [('Spores with OSEO at a concentration of 1250', 'μg/mL')]),
    ('f', [515, 244, 766, 475], [('Spores with OSEO at a concentration of 1800', 'μg/mL.')]),
])
CLIPS['frontiers_PMC4558530/F3'] = (7, [104.42, 68.75, 488.42, 308.03])
# frontiers_PMC4558530/F4: fix: proposals were the plot areas without letter and axis titles: widened on the grid
ANNOTATIONS['frontiers_PMC4558530/F4'] = ('Effect of OSEO on mycelial dry weight and ZEA toxin production in F. graminearum. The experiment was conducted for 14 days of incubation period at 28°C. (A) Effect of various concentrations of OSEO on dry weight of mycelia. (B) Correlation analysis between the reductions in fungal biomass versus reduction in ZEA concentration with that of OSEO concentration, results were expressed in percentage of ZEA reduction. (C) Effect of various concentrations of OSEO on zearalenone biosynthetic pathway genes expression (PKS4 and PKS13) by reverse transcriptase qPCR (Rt-qPCR). Data were analyzed applying a one-way ANOVA followed by the Tukey’s test (n = 6) and p-value <0.05. Nd, not detected.', [
    ('a', [0, 0, 323, 258], [('Effect of various concentrations of OSEO on dry weight of mycelia.', 'Effect of various concentrations of OSEO on dry weight of mycelia.')]),
    ('b', [323, 0, 697, 258], [('Correlation analysis between the reductions', 'percentage of ZEA reduction.')]),
    ('c', [0, 262, 380, 548], [('Effect of various concentrations of OSEO on zearalenone', '(Rt-qPCR).')]),
])
CLIPS['frontiers_PMC4558530/F4'] = (8, [122.78, 68.84, 471.29, 342.95])
# frontiers_PMC4558530/F5: as proposed
ANNOTATIONS['frontiers_PMC4558530/F5'] = ('Antimycotoxin activity of OSEO was performed onto maize inoculated with F. graminearum for ZEA production. The experiment was conducted on maize grains at 28°C in a dark for period of 14 days. (A) Impact of OSEO on ZEA production quantified by reverse phase-UHPLC. (B) Impact of OSEO on zearalenone biosynthetic pathway genes expression (PKS4 and PKS13) by Rt-qPCR. Data were analyzed applying a one-way ANOVA followed by the Tukey’s test (n = 6) and p-value <0.05. Nd, not detected.', [
    ('a', [1, 2, 352, 281], [('Impact of OSEO on ZEA production', 'reverse phase-UHPLC.')]),
    ('b', [352, 2, 735, 281], [('Impact of OSEO on zearalenone biosynthetic', 'by Rt-qPCR.')]),
])
CLIPS['frontiers_PMC4558530/F5'] = (8, [112.69, 424.77, 480.9, 571.31])
# frontiers_PMC7314948/F1: A as proposed; B-D cut at the top of the caption text that the crop holds (y 890)
ANNOTATIONS['frontiers_PMC7314948/F1'] = ('The COVID-19 diagnostic technology landscape. (A) A (non-exhaustive) list of the current and emerging technologies for laboratory-based or decentralized (near or at the point-of-care) COVID-19 diagnosis. Methods for clinical diagnosis of COVID-19, such as chest computed tomography, are discussed elsewhere (6, 7, 11). *Disambiguation: despite being frequently used in the COVID-19 context, the abbreviation RT-PCR is more appropriate to the traditional method of reverse-transcription PCR. For real-time (quantitative) reverse-transcription PCR, such as in SARS-CoV-2 detection, it is more appropriate to use RT-qPCR or rtRT-PCR. FDA EUA, US Food and Drug Administration Emergency Use Authorization (EUA); PoC, point-of-care; NAT, nucleic acid test. (B) Categories of commercially manufactured COVID-19 diagnostic tests, as of late Apr 2020. (C) Regulatory status of the available tests. EUA, Emergency Use Authorization; CE-IVD, Conformité Européenne (EU certification)-in vitro diagnostics; RUO, research use only. (D) Major technologies used in current point-of-care diagnostic tests for COVID-19.', [
    ('a', [0, 0, 1011, 622], [('A (non-exhaustive) list', 'nucleic acid test.')]),
    ('b', [0, 648, 543, 890], [('Categories of commercially manufactured', 'as of late Apr 2020.')]),
    ('c', [543, 648, 766, 890], [('Regulatory status of the available tests.', 'RUO, research use only.')]),
    ('d', [766, 648, 1011, 890], [('Major technologies used in current point-of-care', 'diagnostic tests for COVID-19.')]),
])
CLIPS['frontiers_PMC7314948/F1'] = (2, [44.83, 64.36, 550.45, 560.18])
# frontiers_PMC7546332/F3: A, B as proposed; C, D cut at the caption text the crop holds and D narrowed to its image on the grid
ANNOTATIONS['frontiers_PMC7546332/F3'] = ('Chest CT images of the four family-clustered cases. (A) Case 1. (B) Case 2. (C) Case 3. (D) Case 4.', [
    ('a', [147, 0, 518, 223], [('Case 1.', 'Case 1.')]),
    ('b', [518, 12, 845, 223], [('Case 2.', 'Case 2.')]),
    ('c', [147, 241, 518, 448], [('Case 3.', 'Case 3.')]),
    ('d', [518, 241, 850, 448], [('Case 4.', 'Case 4.')]),
])
CLIPS['frontiers_PMC7546332/F3'] = (3, [44.83, 64.36, 550.45, 314.89])
# mdpi_PMC7600846/jcm-09-03148-f001: fix: proposals were plot areas only; the four charts read on the grid (the crop also holds a table of the article above them, in no panel); panels named by position, no letters
ANNOTATIONS['mdpi_PMC7600846/jcm-09-03148-f001'] = ('Daily admissions in the hospital (top left) and the ICU (bottom left) and overall occupation in the hospital (top right) and the ICU (bottom right) during the COVID-19 epidemic. The vertical black line is the date of the lockdown (17 March). ICU=Intensive Care Unit.', [
    (None, [99, 324, 448, 578], [('Daily admissions in the hospital', 'Daily admissions in the hospital')]),
    (None, [501, 324, 799, 578], [('overall occupation in the hospital', 'overall occupation in the hospital')]),
    (None, [99, 586, 448, 831], [('Daily admissions', 'Daily admissions'), ('the ICU', 'the ICU')]),
    (None, [501, 586, 799, 831], [('overall occupation', 'overall occupation'), ('2#the ICU', 'the ICU')]),
])
CLIPS['mdpi_PMC7600846/jcm-09-03148-f001'] = (3, [74.89, 135.29, 517.06, 567.64])
# mdpi_agronomy6010017/agronomy-06-00017-f001: fix: the splitter cut chart (a) into its bar groups and the legend; (a) top chart with legend, (b) bottom chart, read on the grid
ANNOTATIONS['mdpi_agronomy6010017/agronomy-06-00017-f001'] = ('Rhizosphere bacterial operational taxonomic unit (OTU) (a) richness and (b) Shannon diversity by sampling date. Means and SE are displayed. Differing letters denote significant differences among treatments for a particular sampling date: α = 0.05.', [
    ('a', [0, 0, 505, 446], [('richness', 'richness')]),
    ('b', [0, 446, 505, 787], [('Shannon diversity', 'Shannon diversity')]),
])
CLIPS['mdpi_agronomy6010017/agronomy-06-00017-f001'] = (3, [170.96, 92.25, 423.61, 485.53])
# mdpi_agronomy6010017/agronomy-06-00017-f002: as proposed
ANNOTATIONS['mdpi_agronomy6010017/agronomy-06-00017-f002'] = ('Non-metric multidimensional scaling (NMS) plots of rhizosphere bacterial OTU community compositions comparing treatments for each sampling date separately. (a) June 2007; (b) August 2007; (c) June 2008; (d) August 2008. Symbols represent the average NMS score; error bars represent the SE of the NMS scores.', [
    ('a', [0, 3, 381, 252], [('June 2007', 'June 2007')]),
    ('b', [415, 0, 737, 247], [('August 2007', 'August 2007')]),
    ('c', [0, 270, 389, 562], [('June 2008', 'June 2008')]),
    ('d', [411, 267, 745, 562], [('August 2008', 'August 2008')]),
])
CLIPS['mdpi_agronomy6010017/agronomy-06-00017-f002'] = (4, [112.15, 413.06, 484.47, 694.18])
# mdpi_agronomy6010017/agronomy-06-00017-f003: fix: proposals were plot areas without letters, axis titles and tick labels: two stacked charts read on the grid
ANNOTATIONS['mdpi_agronomy6010017/agronomy-06-00017-f003'] = ('Rhizosphere bacterial OTU (a) richness and (b) Shannon diversity by treatment. Means and SE are displayed. Differing letters denote significant differences among sampling dates for a particular treatment: α = 0.05.', [
    ('a', [0, 0, 513, 365], [('richness', 'richness')]),
    ('b', [0, 365, 513, 772], [('Shannon diversity', 'Shannon diversity')]),
])
CLIPS['mdpi_agronomy6010017/agronomy-06-00017-f003'] = (6, [170.14, 204.18, 426.58, 589.86])
# mdpi_agronomy6010017/agronomy-06-00017-f004: as proposed
ANNOTATIONS['mdpi_agronomy6010017/agronomy-06-00017-f004'] = ('NMS plots of rhizosphere bacterial OTU community compositions comparing sampling dates for each treatment separately. (a) NP; (b) SB; (c) Agrostis; (d) Andropogon; and (e) Helianthus. Symbols represent the average NMS score; error bars represent SE of the NMS scores. J07 = June 2007; A07 = August 2007; J08 = June 2008; A08 = August 2008.', [
    ('a', [0, 3, 396, 262], [('NP;', 'NP')]),
    ('b', [431, 0, 768, 259], [('SB;', 'SB')]),
    ('c', [3, 283, 396, 542], [('Agrostis;', 'Agrostis')]),
    ('d', [421, 283, 775, 555], [('Andropogon;', 'Andropogon')]),
    ('e', [3, 563, 292, 774], [('Helianthus.', 'Helianthus')]),
])
CLIPS['mdpi_agronomy6010017/agronomy-06-00017-f004'] = (7, [104.63, 253.05, 491.83, 684.37])
# micropub_PMC7704251/f1: A as proposed; the lower part (proposals 1-2: B-D rows + E + F) read on the grid: B, C, D are the three image rows, E the chart, F the plate photos
ANNOTATIONS['micropub_PMC7704251/f1'] = ('A) Basic map of pG20-toolkit plasmids. B-F) Proof of concept for C-terminal fusion proteins of the pG20 toolkit using transient expression in Nicotiana benthamiana leaves. B) Empty YFP and C) empty RFP localized in the cytosol or nucleus. D) As expected, no fluorescence signal was detected when vector pG20-MCS was injected as a control. The same was true in E) the luciferase assay and F) the GUS assay whereas pG20-LUC2 and pG20-GUS respectively gave strong signals.', [
    ('a', [20, 109, 970, 679], [('Basic map of pG20-toolkit plasmids.', 'Basic map of pG20-toolkit plasmids.')]),
    ('b', [20, 679, 538, 812], [('Proof of concept for C-terminal fusion proteins', 'Nicotiana benthamiana leaves.'), ('Empty YFP', 'Empty YFP'), ('localized in the cytosol or nucleus.', 'localized in the cytosol or nucleus.')]),
    ('c', [20, 812, 538, 945], [('Proof of concept for C-terminal fusion proteins', 'Nicotiana benthamiana leaves.'), ('empty RFP', 'empty RFP'), ('localized in the cytosol or nucleus.', 'localized in the cytosol or nucleus.')]),
    ('d', [20, 945, 538, 1078], [('Proof of concept for C-terminal fusion proteins', 'Nicotiana benthamiana leaves.'), ('As expected, no fluorescence signal', 'injected as a control.')]),
    ('e', [538, 679, 737, 1078], [('Proof of concept for C-terminal fusion proteins', 'Nicotiana benthamiana leaves.'), ('The same was true in', 'The same was true in'), ('the luciferase assay', 'the luciferase assay'), ('whereas pG20-LUC2', 'gave strong signals.')]),
    ('f', [737, 679, 971, 1078], [('Proof of concept for C-terminal fusion proteins', 'Nicotiana benthamiana leaves.'), ('The same was true in', 'The same was true in'), ('the GUS assay', 'the GUS assay'), ('whereas pG20-LUC2', 'gave strong signals.')]),
])
CLIPS['micropub_PMC7704251/f1'] = (0, [52.26, 135.67, 543.74, 680.3])
# micropub_PMC7704264/f1: as proposed (the crop also holds the author lines above the panels, in no panel)
ANNOTATIONS['micropub_PMC7704264/f1'] = ('A-H A) Schematic of behavioral assay used to examine 2-nonanone-dependent food leaving (See methods section), B) Wild type N2 Caenorbabditis elegans vs Caenorhabditis nouraguensis examined for 2-nonanone-dependent food leaving, (n=5). Wild type N2 C. elegans (Black line), C. nouraguensis, (Red line), n.s=not statistically different, C) Wild type N2 Caenorhabditis elegans and Caenorhabditis portoensis were examined for 2-nonanone-dependent food leaving (n=6). Wild type N2 C. elegans, (Black line), C. portoensis, (Red line), D) Wild type N2 Caenorhabditis elegans vs Caenorhabditis remanei were examined for 2-nonanone-dependent food leaving (n=6). Wild type N2 C. elegans, (Black line), C. remanei, (Blue line), E-F) Caenorhabditis portoensis (slow leavers) and Caenorhabditis remanei (fast leavers) show same food leaving behavior in response to a second repellent, undiluted benzaldehyde (n=3 and, n=4, respectively). Wild type N2 C. elegans, (Black line), C. portoensis, (Red line), and wild type N2 C. elegans, (Black line), C. remanei, (Blue line), G) Caenorhabditis remanei shows fast food leaving behavior during exposure to 2-nonanone while residing on a Bacillus megaterium food patch (n=3). Wild type N2 C. elegans, (Black line), C. remanei, (Blue line), H) Caenorhabditis remanei shows normal sensitivity to 2-nonanone in the absence of food suggesting normal 2-nonanone repellent sensitivity (n=3). Y-axis=Mean avoidance Index (AI) vs X-axis=Time (minutes). Mean ± SEM, Student’s t-test, * p ≤ 0.05, ** p ≤ 0.01, *** p ≤ 0.001. For all assays, n=number of days tested, n.s=not statistically significant when comparing wild type N2 C. elegans to other Caenorhabditis strains tested in this study. All worms were examined using the same method when in the case of changing food types (Bacillus megaterium) or varying volatile chemicals used (2-nonanone (100%)/Benzaldehyde (100%). All Caenorhabditis species were examined in comparison to wild type N2 C. elegans as a control in identical behavioral assay conditions.', [
    ('a', [69, 98, 266, 313], [('Schematic of behavioral assay', '(See methods section)')]),
    ('b', [266, 98, 512, 321], [('Wild type N2 Caenorbabditis elegans vs Caenorhabditis nouraguensis', 'n.s=not statistically different')]),
    ('c', [512, 98, 734, 321], [('Wild type N2 Caenorhabditis elegans and Caenorhabditis portoensis', 'C. portoensis, (Red line)')]),
    ('d', [734, 100, 954, 321], [('Wild type N2 Caenorhabditis elegans vs Caenorhabditis remanei', 'C. remanei, (Blue line)')]),
    ('e', [43, 357, 296, 590], [('Caenorhabditis portoensis (slow leavers) and Caenorhabditis remanei (fast leavers)', 'C. remanei, (Blue line)')]),
    ('f', [296, 357, 548, 590], [('Caenorhabditis portoensis (slow leavers) and Caenorhabditis remanei (fast leavers)', 'C. remanei, (Blue line)')]),
    ('g', [548, 354, 768, 588], [('Caenorhabditis remanei shows fast food leaving', 'C. remanei, (Blue line)')]),
    ('h', [768, 354, 953, 588], [('Caenorhabditis remanei shows normal sensitivity', 'repellent sensitivity (n=3).')]),
])
CLIPS['micropub_PMC7704264/f1'] = (0, [52.26, 102.75, 543.74, 404.17])
# plos_PMC7458341/pntd.0008535.g001: fix: proposals left out the letters, axis titles and legends: two stacked charts read on the grid
ANNOTATIONS['plos_PMC7458341/pntd.0008535.g001'] = ('Temporal distribution of dengue in Guatemala. A. Annual number of samples received for dengue screening. The dashed line indicates the mean number of samples submitted across the study period (~5,300). B. Cumulative number of monthly cases of dengue serotypes 1, 2, 3, and 4.', [
    ('a', [0, 0, 726, 372], [('Annual number of samples received', 'across the study period (~5,300).')]),
    ('b', [0, 372, 726, 726], [('Cumulative number of monthly cases', 'serotypes 1, 2, 3, and 4.')]),
])
CLIPS['plos_PMC7458341/pntd.0008535.g001'] = (3, [200.01, 78.01, 562.85, 440.84])
# plos_PMC7458341/pntd.0008535.g005: as proposed
ANNOTATIONS['plos_PMC7458341/pntd.0008535.g005'] = ('Geographic distribution of dengue in Guatemala (2000–2016). A. Number of dengue cases by Department (incidence per × 10,000 inhabitants). B. Proportion of samples tested that are positive for dengue. Darker colours denote higher values. (Population data from Wikipedia: Departments of Guatemala, 2011 population estimate).', [
    ('a', [8, 1, 503, 498], [('Number of dengue cases by Department', '(incidence per × 10,000 inhabitants).')]),
    ('b', [567, 1, 1078, 489], [('Proportion of samples tested that are positive for dengue.', 'Proportion of samples tested that are positive for dengue.')]),
])
CLIPS['plos_PMC7458341/pntd.0008535.g005'] = (6, [36.0, 416.47, 576.0, 673.74])
# plos_PMC7535057/pntd.0008658.g001: fix: the splitter kept it whole; A (Brazil map + legend, left) and B (Minas Gerais map, right) read on the grid
ANNOTATIONS['plos_PMC7535057/pntd.0008658.g001'] = ('Yellow fever virus (YFV) investigation in non-human primate (NHP) carcasses, in Minas Gerais state, January 2017-December 2018. (A) Geopolitical map of Brazil with biomes distribution. (B) Map of Minas Gerais state indicating municipalities from where NHP carcasses were collected and investigated for YFV RNA. Municipalities are colored as follows: in grey are 120 municipalities without detection of YFV in NHP (in this study); in light red are 110 municipalities with detection of YFV in NHP (this study and official bulletins); and in blue are 49 municipalities with detection of YFV in NHP (only in this study) where YFV circulation has not been described, during 2016–2018 outbreaks. Based on official bulletins, YFV was detected (humans or NHP) in another 31 municipalities of Minas Gerais by the State Surveillance Secretary during 2016–2018 outbreaks [13,21,22]. Abbreviations referring to Federal District and states as follows: AC: Acre; AL: Alagoas; AP: Amapá; AM: Amazonas; BA: Bahia; CE: Ceará; DF: Distrito Federal; ES: Espírito Santo; GO: Goiás; MA: Maranhão; MT: Mato Grosso; MS: Mato Grosso do Sul; MG: Minas Gerais; PA: Pará; PB: Paraíba; PR: Paraná; PE: Pernambuco; PI: Piauí; RR: Roraima; RO: Rondônia; RJ: Rio de Janeiro; RN: Rio Grande do Norte; RS: Rio Grande do Sul; SC: Santa Catarina; SP: São Paulo; SE: Sergipe; and TO: Tocantins. Numbers indicate the mesoregions of Minas Gerais as follows: 1. Triângulo Mineiro e Alto Paranaíba; 2. Northwest; 3. North; 4. Jequitinhonha; 5. Vale do Mucuri; 6. Vale do Rio Doce; 7. Zona da Mata; 8. South/Southwest; 9. West; 10. Central; 11. Metropolitan region; 12. Campo das Vertentes. Maps were created using the QGIS software version 3.8.2.', [
    ('a', [0, 0, 344, 621], [('Geopolitical map of Brazil with biomes distribution.', 'Geopolitical map of Brazil with biomes distribution.')]),
    ('b', [344, 0, 960, 621], [('Map of Minas Gerais state indicating municipalities', 'during 2016–2018 outbreaks.')]),
])
CLIPS['plos_PMC7535057/pntd.0008658.g001'] = (3, [95.98, 78.01, 575.94, 388.29])
# plos_PMC7535057/pntd.0008658.g002: fix: the splitter boxed single circles (13 boxes); the four correlation plots A-D (with their colour bars) read on the grid
ANNOTATIONS['plos_PMC7535057/pntd.0008658.g002'] = ('Association between detection of yellow fever virus (YFV) in the liver of non-human primate (NHP) carcasses with (a) NHP genera, (b) period of sampling (c) environment, and (d) environment plus NHP genera. YFV ND: yellow fever virus RNA was not detected. YFV pos: yellow fever virus RNA was detected. Pearson residuals (standardized) were extracted from the chi-square function and plotted. In each cell, the size of the circle is proportional to the amount of cell contribution, and colors indicate positive residuals (blue) or negative residuals (red). The vertical bars indicate Pearson residuals values. Analyses were run in R software v.3.6.0.', [
    ('a', [0, 0, 419, 504], [('NHP genera', 'NHP genera')]),
    ('b', [419, 0, 806, 355], [('period of sampling', 'period of sampling')]),
    ('c', [0, 504, 419, 1027], [('environment', 'environment')]),
    ('d', [419, 355, 806, 1027], [('environment plus NHP genera.', 'environment plus NHP genera')]),
])
CLIPS['plos_PMC7535057/pntd.0008658.g002'] = (6, [173.03, 78.01, 575.94, 591.59])
# plos_PMC7567380/pone.0240727.g002: as proposed; four titled maps, caption names no panel: boxes only
ANNOTATIONS['plos_PMC7567380/pone.0240727.g002'] = ('Percentage viral suppression in persons with HIV and estimated HIV incidence in 2010 and 2015, United States. The subset includes 30 jurisdictions (29 states and the District of Columbia) with viral suppression data available for 3 years or more. Estimated HIV incidence rate and percent viral suppression categories were determined by quartiles calculated across the entire time frame 2010–15.', [
    (None, [5, 46, 510, 293], []),
    (None, [559, 46, 1064, 293], []),
    (None, [0, 489, 511, 736], []),
    (None, [554, 489, 1065, 736], []),
])
CLIPS['plos_PMC7567380/pone.0240727.g002'] = (6, [43.2, 74.04, 576.0, 441.92])
# plos_pbio.0020294/pbio-0020294-g001: as proposed
ANNOTATIONS['plos_pbio.0020294/pbio-0020294-g001'] = ('Expression of Endogenous PPARδ and VP16-PPARδ Transgene in Muscle (A) Pooled RNA isolated from various muscles of five wild-type male C57B6 mice was hybridized with indicated probes. EDL, extensor digitorum longus; Gastro, gastrocnemius. (B) Pooled nuclear proteins (15 μg/lane) isolated from muscles of five wild-type male C57B6 were probed with anti-PPARδ antibody. RNA polymerase II (Pol II) is shown as a loading control. (C) Expression of the VP16-PPARδ transgene in various tissues. 10 μg of total RNA from each tissue was hybridized with a VP16 cDNA probe. Gastrocnemius muscle was used here. (D) Nuclear proteins (15 μg/lane) isolated from gastrocnemius muscle of the transgenic mice (TG) and the wild-type littermates (WT) were probed with indicated antibodies. The upper, nonspecific band that cross-reacted with the anti-PPARδ antibody serves a loading control.', [
    ('a', [2, 2, 329, 373], [('Pooled RNA isolated from various muscles', 'Gastro, gastrocnemius.')]),
    ('b', [381, 5, 650, 223], [('Pooled nuclear proteins (15 μg/lane)', 'shown as a loading control.')]),
    ('c', [0, 378, 413, 661], [('Expression of the VP16-PPARδ transgene', 'Gastrocnemius muscle was used here.')]),
    ('d', [413, 375, 656, 673], [('Nuclear proteins (15 μg/lane) isolated from gastrocnemius', 'serves a loading control.')]),
])
CLIPS['plos_pbio.0020294/pbio-0020294-g001'] = (1, [45.51, 81.73, 374.33, 419.22])
# plos_pone.0060593/pone-0060593-g001: fix: each panel's printed "(a) self loop" label under it belongs to it: boxes extended down on the grid
ANNOTATIONS['plos_pone.0060593/pone-0060593-g001'] = ('Attractors in Synchronous/Asynchronous Boolean Networks. Figure 1. Diagrams of four types of attractors in Boolean networks. Attractors are outlined by slide boxes, and transient states by dashed boxes. (a) A self loop is a single state attractor. (b) A simple loop includes two or more states: each state is connected with only another state, and any two adjacent states differ from each other by only one bit. (c) A syn-complex loop is similar to simple loop, but any two adjacent states differ from each other by more than one bit. (d) A asyn-complex loop includes multiple interlinked states: each state is connected with more than one states, and there is only one bit difference between any two adjacent states. In Boolean networks, the self loop and simple loop can be identified in both synchronous Boolean networks and asynchronous Boolean networks. But the syn-complex loop only exists in the synchronous Boolean networks, and the asyn-complex loop only exists in asynchronous Boolean networks.', [
    ('a', [5, 3, 438, 115], [('A self loop is a single state attractor.', 'A self loop is a single state attractor.')]),
    ('b', [522, 3, 954, 115], [('A simple loop includes two or more states', 'by only one bit.')]),
    ('c', [4, 117, 439, 340], [('A syn-complex loop is similar to simple loop', 'by more than one bit.')]),
    ('d', [522, 117, 954, 340], [('A asyn-complex loop includes multiple interlinked states', 'between any two adjacent states.')]),
])
CLIPS['plos_pone.0060593/pone-0060593-g001'] = (1, [58.05, 60.78, 536.48, 237.43])
# plos_pone.0060593/pone-0060593-g002: fix: the printed "(a) An asynchronous attractor" under each diagram belongs to it: boxes extended down
ANNOTATIONS['plos_pone.0060593/pone-0060593-g002'] = ('An Asynchronous Attractor to Synchronous Attractor. Figure 2. Diagrams of an attractor in asynchronous (a) and synchronous (b) Boolean networks. Each state is represented by a circle, and is designated as . The variable represents that the bit of the state and is different, which is also same as and . The numbers indicate that state and differ by the and bits respectively. The and represents when state and differ at the bit, state and will be different at the bit, and vice versa. The difference between the two representations (i.e. synchronous versus asynchronous) of the attractor is that and differ in the and bits, . That means we can use syn-complex loop to easily locate the states in asyn-complex_loop by asynchronous Boolean translation function .', [
    ('a', [4, 3, 348, 225], [('asynchronous', 'asynchronous')]),
    ('b', [411, 3, 755, 225], [('synchronous (b)', 'synchronous')]),
])
CLIPS['plos_pone.0060593/pone-0060593-g002'] = (5, [58.05, 60.78, 437.1, 173.37])
# plos_pone.0097823/pone-0097823-g001: fix: the printed A and B name the two rows (two charts each); the splitter gave the four plot areas; caption names no panel: boxes only
ANNOTATIONS['plos_pone.0097823/pone-0097823-g001'] = ('Average normalized mutual information between known and discovered community partitions. Each pair of graphs illustrates the average NMI for the combined approach and the dual-projection approach. The error bars refer to one standard deviation.', [
    ('a', [0, 0, 858, 444], []),
    ('b', [0, 444, 858, 888], []),
])
CLIPS['plos_pone.0097823/pone-0097823-g001'] = (2, [58.05, 60.78, 487.02, 504.85])
# plos_pone.0097823/pone-0097823-g002: fix: printed A (left) and B (right) with their titles and axes, read on the grid; caption names no panel: boxes only
ANNOTATIONS['plos_pone.0097823/pone-0097823-g002'] = ('Average normalized mutual information between known and discovered community partitions. The pair of graphs illustrates the average NMI for the combined approach and the dual-projection approach. All networks had two communities in the first mode and ten in the second. The error bars refer to one standard deviation.', [
    ('a', [0, 0, 440, 411], []),
    ('b', [440, 0, 878, 411], []),
])
CLIPS['plos_pone.0097823/pone-0097823-g002'] = (3, [58.05, 60.77, 496.86, 266.51])
# scopemed_PMC5061480/F2: fix: proposals 2 and 4 were plot areas without titles; six charts on a regular 3 x 2 grid; caption names no panel (titles in the image only): boxes only
ANNOTATIONS['scopemed_PMC5061480/F2'] = ('Dose response of polyherbal formulation (PHF) pretreatment on hepatic cytochrome P450 functional activity. Rats were given 50, 100, and 200 mg/kg/day of PHF for 1 week. Control rats received same volume of blank formulation for same time period of time. Each value is expressed as mean ± standard error from three independent experiments. Asterisks indicate significant differences (*P < 0.05, **P < 0.01) from control', [
    (None, [0, 0, 242, 250], []),
    (None, [242, 0, 484, 250], []),
    (None, [484, 0, 726, 250], []),
    (None, [0, 250, 242, 499], []),
    (None, [242, 250, 484, 499], []),
    (None, [484, 250, 726, 499], []),
])
CLIPS['scopemed_PMC5061480/F2'] = (5, [124.56, 61.21, 487.44, 310.37])
# scopemed_PMC5061480/F3: fix: proposals 1-2 were plot areas without titles; three charts on a regular 3 x 1 grid; caption names no panel (titles in the image only): boxes only
ANNOTATIONS['scopemed_PMC5061480/F3'] = ('Dose response of polyherbal formulation (PHF) pretreatment on hepatic Phase II conjugation enzymes functional activity. Rats were given 50, 100 and 200 mg/kg/day of PHF for 1 week. Control rats received same volume of blank formulation for same period of time. Each value is expressed as mean ± standard error from three independent experiments. Asterisks indicate significant differences (*P < 0.05 and **P < 0.01) from control', [
    (None, [0, 0, 242, 266], []),
    (None, [242, 0, 484, 266], []),
    (None, [484, 0, 726, 266], []),
])
CLIPS['scopemed_PMC5061480/F3'] = (5, [124.56, 360.16, 487.44, 493.16])
# scopemed_PMC5061480/F5: fix: mixed plot-area/whole-chart proposals; six charts on a regular 3 x 2 grid; caption names no panel (titles in the image only): boxes only
ANNOTATIONS['scopemed_PMC5061480/F5'] = ('TTime dependent effect of polyherbal formulation (PHF) pretreatment on hepatic cytochrome P450 functional activity. Rats were given PHF (p.o 100 mg/kg/day) for 4 weeks and rats were sacrificed after every week. Control rats received the same volume of blank for same time duration. LC, LT1, LT2, LT3 and LT4 represents control group, 1 week pretreated group, 2 week pretreated group, 3 week pretreated group and 4 week pretreated group with PHF, respectively. Each value is expressed as mean ± standard error from three independent experiments. Asterisks indicate significant differences (*P < 0.05, **P < 0.01, ***P < 0.001) from control', [
    (None, [0, 0, 242, 204], []),
    (None, [242, 0, 484, 204], []),
    (None, [484, 0, 726, 204], []),
    (None, [0, 204, 242, 408], []),
    (None, [242, 204, 484, 408], []),
    (None, [484, 204, 726, 408], []),
])
CLIPS['scopemed_PMC5061480/F5'] = (6, [124.56, 475.18, 487.44, 678.98])
# scopemed_PMC5061480/F6: fix: proposal 1 was a plot area; three charts on a regular 3 x 1 grid; caption names no panel (titles in the image only): boxes only
ANNOTATIONS['scopemed_PMC5061480/F6'] = ('Time dependent effect of polyherbal formulation (PHF) pretreatment on hepatic Phase II conjugation enzyme functional activity. Rats were given PHF (p.o 100 mg/kg/day) for 4 weeks and rats were sacriced after every week. Control rats received the same volume of blank formulation for same time duration. LC, LT1, LT2, LT3 and LT4 represents control group, 1 week pretreated group, 2 week pretreated group, 3 week pretreated group and 4 week pretreated group with PHF, respectively. Each value is expressed as mean ± standard error from three independent experiments. Asterisks indicate significant differences (*P < 0.05, **P < 0.01, ***P < 0.001) from control', [
    (None, [0, 0, 242, 220], []),
    (None, [242, 0, 484, 220], []),
    (None, [484, 0, 726, 220], []),
])
CLIPS['scopemed_PMC5061480/F6'] = (7, [120.0, 61.21, 482.88, 171.17])
# scopemed_PMC5061480/F9: fix: proposal 1 was a plot area; three charts on a regular 3 x 1 grid; caption names no panel (titles in the image only): boxes only
ANNOTATIONS['scopemed_PMC5061480/F9'] = ('Dose dependent changes in intestinal cytochrome P450 activity in rats treated with standardized extract of polyherbal formulation (PHF). Rats were given 50, 100 and 200 mg/kg/day of standardized PHF extract for 1-week and sacrificed on 8th day. Control rats received same volume of blank formulation for same time duration. Each value is expressed as mean ± standard error from three independent experiments. Asterisks indicate significant differences (*P < 0.05, **P < 0.01) from control', [
    (None, [0, 0, 242, 291], []),
    (None, [242, 0, 483, 291], []),
    (None, [483, 0, 725, 291], []),
])
CLIPS['scopemed_PMC5061480/F9'] = (8, [136.8, 61.21, 499.68, 206.45])
# scopemed_PMC5061480/F10: fix: proposal 0 was a plot area without its title; three charts on a regular 3 x 1 grid; caption names no panel (titles in the image only): boxes only
ANNOTATIONS['scopemed_PMC5061480/F10'] = ('Dose dependent changes in intestinal conjugation Phase II enzyme activity in rats treated with extract of polyherbal formulation (PHF). Rats were given 50, 100 and 200 mg/kg/day of standardized PHF extract for 1 week and sacrificed on 8th day. Control rats received same volume of blank formulation for same time duration. Each value is expressed as mean ± standard error from three independent experiments. Asterisks indicate significant differences (*P < 0.05, **P < 0.01) from control', [
    (None, [0, 0, 242, 237], []),
    (None, [242, 0, 485, 237], []),
    (None, [485, 0, 727, 237], []),
])
CLIPS['scopemed_PMC5061480/F10'] = (8, [124.56, 266.23, 488.19, 384.35])
# scopemed_PMC5061480/F12: fix: proposals without titles; five charts on a 3 x 2 grid (last cell empty); caption names no panel (titles in the image only): boxes only
ANNOTATIONS['scopemed_PMC5061480/F12'] = ('Time dependent effect of polyherbal formulation (PHF) pretreatment on intestinal cytochrome P450 functional activity. Rats were given PHF (100 mg/kg/day) for 4 weeks and rats were sacrificed after every week. Control rats received the same volume of blank formulation for same time duration. IC, IT1, IT2, IT3 and IT4 represents control group, 1 week pretreated group, 2 week pretreated group, 3 week pretreated group and 4 week pretreated group with BM, respectively. Each value is expressed as mean ± standard error from three independent experiments. Asterisks indicate significant differences (*P < 0.05, **P < 0.01) from control', [
    (None, [0, 0, 242, 234], []),
    (None, [242, 0, 484, 234], []),
    (None, [484, 0, 726, 234], []),
    (None, [0, 234, 242, 468], []),
    (None, [242, 234, 484, 468], []),
])
CLIPS['scopemed_PMC5061480/F12'] = (9, [124.56, 61.21, 487.44, 294.77])
# scopemed_PMC5289091/F1: fix: the splitter kept it whole; two blot panels (dose, left; time, right) split by eye at x 201; caption names no panel (titles in the image only): boxes only
ANNOTATIONS['scopemed_PMC5289091/F1'] = ('Dose and time dependent effect of PHF administration on intestinal ABCB1 mRNA level. In dose response experiment rats were orally gavaged with 50, 100 and 200 mg/kg/day of PHF extract for 1 week. To evaluate time dependent changes in ABCB1 mRNA expression rats were gavaged with PHF (p.o 100 mg/kg/day) consecutively for 28 days and any alteration in mRNA expression was assessed after every 7 days. IT1, IT2, IT3 and IT4 represent treatment for 7, 14, 21 and 28 days, respectively. Control group received the same volume of blank formulation for same time duration. Each value is expressed as mean ± standard error from three independent experiments. Asterisks indicate significant differences (*P<0.05, **P<0.01) from control.', [
    (None, [0, 0, 201, 134], []),
    (None, [201, 0, 485, 134], []),
])
CLIPS['scopemed_PMC5289091/F1'] = (3, [54.24, 542.23, 296.64, 608.95])
# scopemed_PMC5289091/F2: as proposed; caption names no panel (titles in the image only): boxes only
ANNOTATIONS['scopemed_PMC5289091/F2'] = ('Dose and time-dependent effect of PHF administration on intestinal Pgp protein level. In dose response experiment rats were orally gavaged with 50, 100 and 200 mg/kg/day of PHF extract for 1 week. In time response study rats were gavaged with PHF (100 mg/kg/day) consecutively for 28 days and any alteration in mRNA expression was assessed after every 7 days. T1, T2, T3 and T4 represent treatment for 7, 14, 21 and 28 days, respectively. Control group received the same volume of blank formulation for same time duration.', [
    (None, [16, 16, 353, 203], []),
    (None, [372, 11, 716, 202], []),
])
CLIPS['scopemed_PMC5289091/F2'] = (4, [124.56, 172.5, 487.44, 282.9])
# scopemed_PMC5289091/F3: fix: proposals without titles; three charts on a regular 3 x 1 grid; caption names no panel (titles in the image only): boxes only
ANNOTATIONS['scopemed_PMC5289091/F3'] = ('Dose response of PHF administration on intestinal Pgp activity. Rh123 transport was performed in absence and presence of inhibitor (verapamil 100 µM) across the everted gut sac obtained from control and PHF treated rats. Each value (percent of Rh123 transported per min) is expressed as mean ± standard error from three independent experiments. Asterisks indicate significant differences (*P<0.05 and **P<0.01) from control.', [
    (None, [0, 0, 242, 274], []),
    (None, [242, 0, 484, 274], []),
    (None, [484, 0, 726, 274], []),
])
CLIPS['scopemed_PMC5289091/F3'] = (4, [124.56, 348.79, 487.44, 486.07])
# scopemed_PMC5289091/F4: as proposed; caption names no panel (titles in the image only): boxes only
ANNOTATIONS['scopemed_PMC5289091/F4'] = ('Time dependent effect of PHF administration on intestinal Pgp activity. Rh123 transport was performed in absence and presence of inhibitor (verapamil 100 µM) across the everted gut sac obtained from control and PHF treated rats. C, T1, T2, T3 and T4 represents control group, one, two, three and four week treated group, respectively. Values are expressed as percent of Rh123 transported per min and are mean ± standard deviation of three replicates.', [
    (None, [10, 9, 235, 228], []),
    (None, [263, 12, 523, 261], []),
    (None, [528, 13, 717, 261], []),
])
CLIPS['scopemed_PMC5289091/F4'] = (4, [124.56, 552.15, 487.44, 688.95])
# scopemed_PMC5289091/F5: as proposed; caption names no panel (titles in the image only): boxes only
ANNOTATIONS['scopemed_PMC5289091/F5'] = ('Exsorption of Rh123 in intestinal lumen with and without PHF pretreatment. Rats were treated with PHF (100 mg/kg/day) for one week and exsorption study with Rh123 was evaluated as described in material and methods. Each value is expressed as mean ± standard deviation of three independent experiments. Asterisk ** represents significant difference from control with p< 0.01', [
    (None, [9, 9, 338, 283], []),
    (None, [364, 44, 716, 266], []),
])
CLIPS['scopemed_PMC5289091/F5'] = (5, [124.56, 67.2, 487.44, 212.16])
# springer_PMC4569613/Fig4: as proposed; letters inside the description ("using a RAPD primers and b ISSR primers")
ANNOTATIONS['springer_PMC4569613/Fig4'] = ('Three-dimensional plot by PCA using a RAPD primers and b ISSR primers; 1 Green Tulsi, 2 Black Tulsi, 3 Kapur Tulsi, 4 Closimum, 5 Van Tulsi, 6 Aajlo, 7 Aavachi Bavachi, 8 SBOB-1, 9 SBOB-2, 10 Walmi, 11 Violet, 12 Jodhpur, 13 Jhadol Udaipur, 14 Solan Serrated, 15 IC-283658, 16 Long Spike, 17 Anand Local', [
    ('a', [3, 1, 454, 361], [('RAPD primers', 'RAPD primers')]),
    ('b', [0, 399, 463, 759], [('ISSR primers', 'ISSR primers')]),
])
CLIPS['springer_PMC4569613/Fig4'] = (9, [54.01, 59.24, 286.33, 439.16])
# springer_PMC7553375/Fig1: fix: the splitter kept it whole (CT tiles touch, no gaps): the 2 x 4 grid of lettered tiles, equal cells checked by eye
ANNOTATIONS['springer_PMC7553375/Fig1'] = ('Appearance of COVID-19 on CT. a, b A 35-year-old male presented 13 days after the symptom onset with unproductive cough, fatigue, and anosmia. Mild CT signs: GGOs in only one lobe. c, d A 60-year-old male having symptoms for 7 days: muscle pain, weakness, fever, and effort dyspnea. Bilateral, multilobar GGOs and halo sign (small consolidation surrounded by GGO) on the lower section. e, f A 73-year-old woman experiencing weakness, muscle pain, inappetence, and mild effort dyspnea. e Bilateral GGOs, thickened vessels, and traction bronchiectasis on the right. f 4 days later, the abnormalities are more extensive and crazy paving appeared within the GGO. g, h An 82-year-old man having symptoms for a week: dry cough, fever, weakness, inappetence, and low oxygen saturation at presentation. Several features are visible on the CT scans: GGOs, consolidation, organizing pneumonia with reverse halo sign', [
    ('a', [0, 0, 312, 242], [('A 35-year-old male presented', 'GGOs in only one lobe.')]),
    ('b', [312, 0, 623, 242], [('A 35-year-old male presented', 'GGOs in only one lobe.')]),
    ('c', [0, 242, 312, 484], [('A 60-year-old male having symptoms', 'on the lower section.')]),
    ('d', [312, 242, 623, 484], [('A 60-year-old male having symptoms', 'on the lower section.')]),
    ('e', [0, 484, 312, 726], [('A 73-year-old woman', 'mild effort dyspnea.'), ('Bilateral GGOs, thickened vessels', 'bronchiectasis on the right.')]),
    ('f', [312, 484, 623, 726], [('A 73-year-old woman', 'mild effort dyspnea.'), ('4 days later, the abnormalities', 'appeared within the GGO.')]),
    ('g', [0, 726, 312, 968], [('An 82-year-old man', 'reverse halo sign')]),
    ('h', [312, 726, 623, 968], [('An 82-year-old man', 'reverse halo sign')]),
])
CLIPS['springer_PMC7553375/Fig1'] = (2, [232.38, 54.88, 544.25, 539.09])
# springer_PMC7783296/Fig2: as proposed
ANNOTATIONS['springer_PMC7783296/Fig2'] = ('Application of different DL models to biological data. a Wordcloud generated using author keywords extracted from research papers published between January 2011 and March 2020 which mentioned analysis of biological data (images, signals and sequences) using DL techniques and indexed in the Scopus database. The keywords were pruned to highlight the analysis methods. b Distribution of published papers mentioning the usage of top 10 techniques. The colours of the individual pies match the colours in the wordcloud. Legend—CNN: Convolutional Neural Network, FCN: Fully Connected Network, DA[E]: Deep Autoencoder, TRL: Transfer Learning, RNN: Recurrent Neural Network (including Long Short-Term Memory or LSTM), ANN: Artificial Neural Network, GAN: Generative Adversarial Network, DNN: Deep Neural Network, DBN: Deep Belief Network, DBM: Deep Boltzmann Machine', [
    ('a', [2, 0, 584, 440], [('Wordcloud generated using author keywords', 'highlight the analysis methods.')]),
    ('b', [608, 1, 964, 345], [('Distribution of published papers', 'Deep Boltzmann Machine')]),
])
CLIPS['springer_PMC7783296/Fig2'] = (2, [56.7, 411.34, 538.58, 631.56])
# springer_PMC7783296/Fig3: fix: the splitter kept it whole; three stacked charts (letters a, b, c at their top-left) in equal rows, checked by eye; the shared legend goes with c
ANNOTATIONS['springer_PMC7783296/Fig3'] = ('Trends in publication involving different DL architectures from 2015 to 2019 in three major types of data—images a, signals b, and sequences c. The numbers of papers have been normalized within each data type. However, it is noteworthy that the ratio of number of publications involving DL techniques applied to different data types (images, signals, and sequences) are approximately—1:14:110', [
    ('a', [0, 0, 464, 256], [('images', 'images')]),
    ('b', [0, 256, 464, 512], [('signals', 'signals')]),
    ('c', [0, 512, 464, 768], [('sequences', 'sequences')]),
])
CLIPS['springer_PMC7783296/Fig3'] = (7, [54.42, 59.45, 286.3, 443.46])
# springer_PMC7783296/Fig4: as proposed (b top middle, d top right, c bottom left, e bottom right)
ANNOTATIONS['springer_PMC7783296/Fig4'] = ('Relative comparison of DL tools. a Popularity trend of individual DL tools as per mention in google search generated globally (data courtesy: Google Trend). b Mention in articles submitted to arXiv preprint server during the first quarter of 2020. c The effect of community’s participation on individual tools is shown by the bubble size, which is product of normalized number of GitHub forks and contributors. d As for the interoperability among the DL tools, Keras allows model importing from Caffe, MCT (CNTK), Theano, and TensorFlow and lets DL4j to import. e Regarding hardware-based scalability of the DL tools, most of the tools provide CPU and GPU support, whereas FPGA and ASIC can mainly execute pretrained models', [
    ('a', [1, 4, 405, 249], [('Popularity trend of individual DL tools', '(data courtesy: Google Trend).')]),
    ('b', [447, 1, 663, 236], [('Mention in articles submitted to arXiv', 'first quarter of 2020.')]),
    ('c', [1, 279, 496, 610], [('The effect of community’s participation', 'GitHub forks and contributors.')]),
    ('d', [713, 0, 959, 229], [('As for the interoperability among the DL tools', 'lets DL4j to import.')]),
    ('e', [530, 279, 964, 624], [('Regarding hardware-based scalability', 'execute pretrained models')]),
])
CLIPS['springer_PMC7783296/Fig4'] = (21, [56.66, 59.67, 538.69, 371.67])
# springer_PMC7783296/Fig5: as proposed (the legend beside d is shared and sits in its box, as the splitter drew it)
ANNOTATIONS['springer_PMC7783296/Fig5'] = ('Benchmarking stacked autoencoder or DA (a, b) and LSTM (c-f) in CPU and GPU platforms. The numbers in (a, c) denote the number of CPU threads employed in the benchmarking process, and in (d-f) denote the batch size. In case of DA the batch size was 64', [
    ('a', [7, 1, 430, 248], [('stacked autoencoder or DA', 'stacked autoencoder or DA'), ('denote the number of CPU threads', 'in the benchmarking process'), ('In case of DA the batch size was 64', 'In case of DA the batch size was 64')]),
    ('b', [430, 0, 840, 250], [('stacked autoencoder or DA', 'stacked autoencoder or DA'), ('In case of DA the batch size was 64', 'In case of DA the batch size was 64')]),
    ('c', [0, 265, 380, 508], [('LSTM', 'LSTM'), ('denote the number of CPU threads', 'in the benchmarking process')]),
    ('d', [429, 265, 964, 521], [('LSTM', 'LSTM'), ('denote the batch size.', 'denote the batch size.')]),
    ('e', [0, 508, 380, 766], [('LSTM', 'LSTM'), ('denote the batch size.', 'denote the batch size.')]),
    ('f', [429, 521, 806, 766], [('LSTM', 'LSTM'), ('denote the batch size.', 'denote the batch size.')]),
])
CLIPS['springer_PMC7783296/Fig5'] = (23, [56.43, 60.56, 538.32, 445.77])
# springer_PMC7783296/Fig6: fix: each network (AlexNet, GoogLeNet, Overfeat, VGG) is one panel of two charts -> unions of proposal pairs; caption names no panel (titles in the image only): boxes only
ANNOTATIONS['springer_PMC7783296/Fig6'] = ('The speedup of CNN training in different DL tools across various GPUs in comparison to CPU. The reported values were calculated for a batch size of 128, except for VGG for which the batch size was 64', [
    (None, [0, 0, 456, 268], []),
    (None, [493, 0, 957, 289], []),
    (None, [0, 361, 456, 650], []),
    (None, [493, 359, 957, 650], []),
])
CLIPS['springer_PMC7783296/Fig6'] = (24, [58.31, 325.26, 536.96, 682.02])
WHY_SINGLE['bmc_PMC5080681/Fig1'] = 'one chromatogram'
SINGLE['bmc_PMC5080681/Fig1'] = 'Representative GC/MS chromatogram of essential oil from T. bovei'
CLIPS['bmc_PMC5080681/Fig1'] = (4, [56.69, 88.61, 538.58, 246.96])
WHY_SINGLE['bmc_PMC5248495/Fig1'] = 'one bar chart'
SINGLE['bmc_PMC5248495/Fig1'] = 'The minimal inhibitory concentrations (MICs) of O. citriodorum, O. basilicum var. thyrsiflora and O. basilicum var. purpureum essential oils on selected Gram-positive, Gram-negative bacteria and fungi. Antibiotic-resistant E. coli dhpα-pUC18 strain was used. For bacteria and fungi strains and other details, see Methods. *Antibiotic-resistant E. coli dhpα-pUC18 strain'
CLIPS['bmc_PMC5248495/Fig1'] = (4, [56.69, 88.61, 538.58, 281.03])
WHY_SINGLE['bmc_PMC5248495/Fig2'] = 'one bar chart'
SINGLE['bmc_PMC5248495/Fig2'] = 'IC50 values of antiradical activity of O. citriodorum, O. basilicum var. thyrsiflora and O. basilicum var. purpureum essential oils. For details, see Methods'
CLIPS['bmc_PMC5248495/Fig2'] = (4, [56.69, 525.77, 538.58, 727.31])
WHY_SINGLE['bmc_PMC5248495/Fig3'] = 'one bar chart'
SINGLE['bmc_PMC5248495/Fig3'] = 'The tyrosinase inhibitory activity of O. basilicum var. thyrsiflora and O. basilicum var. purpureum, O. citriodorum essential oils. For details, see Methods'
CLIPS['bmc_PMC5248495/Fig3'] = (5, [56.69, 508.03, 538.58, 727.31])
WHY_SINGLE['bmc_PMC5497343/Fig1'] = 'one spectrum'
SINGLE['bmc_PMC5497343/Fig1'] = 'GC-MS spectra of the six major compounds present in the EO of T. minuta'
CLIPS['bmc_PMC5497343/Fig1'] = (5, [56.69, 496.4, 538.58, 727.31])
WHY_SINGLE['bmc_PMC5497343/Fig2'] = 'one bar chart'
SINGLE['bmc_PMC5497343/Fig2'] = 'Antioxidant effect of essential oil of T. minuta flower and vitamin C on DPPH radical'
CLIPS['bmc_PMC5497343/Fig2'] = (6, [56.69, 611.66, 290.55, 703.09])
WHY_SINGLE['bmc_PMC5497343/Fig3'] = 'one bar chart'
SINGLE['bmc_PMC5497343/Fig3'] = 'Antioxidant effect of essential oil of T. minuta flower and vitamin C on ABTS radical'
CLIPS['bmc_PMC5497343/Fig3'] = (6, [304.72, 88.61, 538.58, 184.28])
WHY_SINGLE['bmc_PMC5497343/Fig4'] = 'one bar chart'
SINGLE['bmc_PMC5497343/Fig4'] = 'Antioxidant effect of essential oil of T. minuta flower and vitamin C on lipid peroxidation radical'
CLIPS['bmc_PMC5497343/Fig4'] = (6, [304.72, 604.12, 538.58, 703.04])
WHY_SINGLE['bmc_PMC7481547/Fig1'] = 'one phylogenetic tree (splitter cut it in two)'
SINGLE['bmc_PMC7481547/Fig1'] = 'Phylogenetic tree of current PEDV strains. Phylogenetic tree of 2019 PEDV strains from Germany, Hungary, and France as well as 2014 PEDV strains from Germany, USA, and China. The complete genome sequences were aligned using MAFFT and a phylogenetic analysis was performed using PhyML, with a GTR substitution model and tree reconstruction supported by 1000 bootstrapping replicas [28, 29]. Green branches show the 2019 PEDV isolates from Germany, blue branches highlight the isolates from Hungary and France and red branches are the highly virulent NON-INDEL strains from the USA and China'
CLIPS['bmc_PMC7481547/Fig1'] = (3, [56.69, 88.61, 538.58, 376.72])
WHY_SINGLE['bmc_PMC7569564/Fig1'] = 'one annotated chart'
SINGLE['bmc_PMC7569564/Fig1'] = 'Epidemic tendency of COVID-19 and the measures adopted for epidemic control in Hainan Province. COVID-19: Coronavirus disease 2019'
CLIPS['bmc_PMC7569564/Fig1'] = (2, [56.69, 88.61, 538.58, 476.84])
WHY_SINGLE['bmc_PMC7569564/Fig3'] = 'one dot plot (splitter cut the axis off)'
SINGLE['bmc_PMC7569564/Fig3'] = 'Comparison of the IgG antibody levels of 43 COVID-19 patients between the follow-up of week 2 and week 4 after discharge. COVID-19: Coronavirus disease 2019'
CLIPS['bmc_PMC7569564/Fig3'] = (9, [56.69, 88.61, 290.55, 261.3])
WHY_SINGLE['bmc_PMC7966905/Fig1'] = 'one flow chart'
SINGLE['bmc_PMC7966905/Fig1'] = 'The process of outpatient in Shanghai Children’s Medical Center'
CLIPS['bmc_PMC7966905/Fig1'] = (3, [56.69, 88.61, 538.58, 252.74])
WHY_SINGLE['bmc_PMC7966905/Fig2'] = 'one flow chart; caption letters are footnote marks of its boxes'
SINGLE['bmc_PMC7966905/Fig2'] = 'Procedures of data cleaning. a A few observations had appointments, who might come very late after registration, were excluded from our analysis. b We also discarded patients arriving late to prevent them from interfering with the result. c Since this study mainly shortened the time of the patients undergoing the laboratory test, the patients who did not have the test should be deleted. d The data of some patients recorded the time they got their medicine but the corresponding drug costs were missing. This part of data was deleted as missing value.e patients with illogical discrepancies was deleted. For example, a few patients could register and get medicine in just 1 min according to our calculation, which was impossible in our hospital'
CLIPS['bmc_PMC7966905/Fig2'] = (5, [56.69, 88.61, 538.58, 536.66])
WHY_SINGLE['bmj_PMC7412619/F1'] = 'one state diagram'
SINGLE['bmj_PMC7412619/F1'] = 'HIV transmission Markov model. For each underlying population, a Markov chain is considered with the state space, consisting of the six states: (1) HIV-; (2) HIV+ undiagnosed; (3) HIV+ diagnosed pre-ART; (4) HIV+ diagnosed on ART with viral suppression; (5) HIV+ diagnosed on ART with virological failure; and (6) death. State (5) represents a setting where viral suppression is not achieved under the current ART regimen, or where individuals discontinued ART for the duration of the 3-month cycle. ART, antiretroviral therapy; ‘+’, positive; ‘-’, negative.'
CLIPS['bmj_PMC7412619/F1'] = (1, [56.68, 514.43, 538.6, 684.35])
WHY_SINGLE['dove_PMC4708241/f1-dddt-10-155'] = 'one flow chart'
SINGLE['dove_PMC4708241/f1-dddt-10-155'] = 'Method for isolating quercetol from O. sanctum.'
CLIPS['dove_PMC4708241/f1-dddt-10-155'] = (1, [54.35, 471.56, 290.9, 705.58])
WHY_SINGLE['dove_PMC5965372/f2-dddt-12-1303'] = 'one bar chart (splitter cut its last bars off)'
SINGLE['dove_PMC5965372/f2-dddt-12-1303'] = 'Vicenin-2 reduces TCF/LEF reporter assay. Notes: Vicenin-2 administration reduces the TCF/LEF reporter activity. The details of the experiment are included in the “Materials and methods” section. “**” denotes the statistical difference at P<0.05. Abbreviations: LEF, leukocyte erythroid factor; TCF, T-cell factor.'
CLIPS['dove_PMC5965372/f2-dddt-12-1303'] = (3, [101.38, 54.17, 496.01, 252.77])
WHY_SINGLE['dove_PMC7585508/f0001'] = 'one flow chart (splitter cut it in six)'
SINGLE['dove_PMC7585508/f0001'] = 'Flowchart of management of suspected cases of COVID-19 at Chengdu Women’s and Children’s Central Hospital.'
CLIPS['dove_PMC7585508/f0001'] = (2, [120.02, 54.63, 509.41, 654.63])
WHY_SINGLE['elsevier_PMC5991880/fig1'] = 'one pathway drawing (splitter cut out two structures)'
SINGLE['elsevier_PMC5991880/fig1'] = 'Biosynthetic pathway of podophyllotoxin in P. hexandrum. Chemical conversion of anticancer etoposide from podophyllotoxin is also shown. Uncharacterized steps in the pathway are indicated by dashed lines. DIR: dirigent protein, PLR: pinoresinol lariciresinol reductase, SDH: secoisolariciresinol dehydrogenase CYP: cytochrome P 450.'
CLIPS['elsevier_PMC5991880/fig1'] = (3, [94.34, 490.69, 491.18, 709.98])
WHY_SINGLE['elsevier_PMC5991880/fig2'] = 'one pathway drawing; "(A)" names a molecule'
SINGLE['elsevier_PMC5991880/fig2'] = 'Showing Olivetolic Acid Cyclase in the biosynthesis of cannabinoids, a unique biosynthetic route to plant polyketides. The enzyme cyclase catalyzes the formation of OA from hexanoyl CoA plus malonyl CoA (A). OA then converted to cannabigerolic acid and then to major cannabinoids, CBDA through enzymatic conversions. Finally, CBDA upon decarboxylation produces their neutral form CBD, cannabidiol.'
CLIPS['elsevier_PMC5991880/fig2'] = (4, [143.83, 69.13, 461.31, 378.36])
WHY_SINGLE['elsevier_PMC7518201/fig1'] = 'one diagram'
SINGLE['elsevier_PMC7518201/fig1'] = 'Two manifolds, each of which includes 8 regions that are connected by a bridge manifold. Exchanged humans are represented by strings.'
CLIPS['elsevier_PMC7518201/fig1'] = (1, [59.06, 544.58, 484.96, 672.51])
WHY_SINGLE['elsevier_PMC7518201/fig2'] = 'one line chart'
SINGLE['elsevier_PMC7518201/fig2'] = 'The probability of death in terms of time for COVID9 (t0−i=31i,n=200,m=51). Probabilities could have a coefficient of order 10−3, less or more. This is very the same the pandemic in Europe (Lescureet al, 2020).'
CLIPS['elsevier_PMC7518201/fig2'] = (3, [162.26, 502.98, 381.8, 663.53])
WHY_SINGLE['elsevier_PMC7518201/fig3'] = 'one line chart'
SINGLE['elsevier_PMC7518201/fig3'] = 'The probability of death in terms of time for COVID9 (t0−i=45i,n=200,m=23). Probabilities could have a coefficient of order 10−3, less or more. This is very similar to the pandemic in North-America (Lescureet al, 2020).'
CLIPS['elsevier_PMC7518201/fig3'] = (4, [162.26, 53.8, 381.8, 205.68])
WHY_SINGLE['elsevier_PMC7518201/fig4'] = 'one line chart'
SINGLE['elsevier_PMC7518201/fig4'] = 'Comparing the probability of death in terms of time for COVID9 in two different regions. (Probabilities could have a coefficient of order 10−3, less or more.)'
CLIPS['elsevier_PMC7518201/fig4'] = (4, [162.26, 252.96, 381.8, 408.59])
WHY_SINGLE['frontiers_PMC4558530/F1'] = 'one line chart'
SINGLE['frontiers_PMC4558530/F1'] = 'Dose-dependent antioxidant activities of OSEO and quercetin were determined by DPPH∗ assay. Data were analyzed applying a one-way analysis of variance (ANOVA) followed by the Tukey’s test (n = 6) and p-value <0.05.'
CLIPS['frontiers_PMC4558530/F1'] = (5, [70.46, 509.4, 264.05, 655.43])
WHY_SINGLE['frontiers_PMC5981179/F1'] = 'one pathway drawing (splitter cut it in five)'
SINGLE['frontiers_PMC5981179/F1'] = 'Demonstrate the overview of ethylene biosynthesis and role of ACC deaminase-producing bacteria in the stress condiction. The enzyme SAM-synthetase (SAMS) convert amino acid methionine to S-adenosyl-L-methionine (SAM). Then ACC synthase (ACS) convert SAM into ACC, in this reaction 5′methylthioadenosine (MTA) is also produced, which is recycled back to methionine, this multi-step pathway is also known as the Yang cycle. ACC oxidase convert ACC to ethylene in the presence of oxygen. Besides, ACC can be conjugated to M-ACC, JA-ACC, G-ACC by the action of their respective enzymes. Plant response to waterlogged condition and produce excess amount of ACC. ACC deaminase–producing bacteria catabolize the exuded ACC into ammonia and alpha-ketobutyrate and mitigate the adverse effects of waterlogging stress on the plant.'
CLIPS['frontiers_PMC5981179/F1'] = (2, [44.83, 64.36, 550.45, 573.72])
WHY_SINGLE['frontiers_PMC7544991/F1'] = 'one timeline drawing (splitter cut it in ten)'
SINGLE['frontiers_PMC7544991/F1'] = 'Timeline of case report.'
CLIPS['frontiers_PMC7544991/F1'] = (2, [44.83, 64.37, 550.45, 560.9])
WHY_SINGLE['frontiers_PMC7546332/F1'] = 'one pedigree'
SINGLE['frontiers_PMC7546332/F1'] = 'Pedigree of the clustered SARS-Cov-2 infection cases. Arrow indicates the proband (case 1). Case 2, 3, and 4 are close contacts of case 1. Full black fills indicate the individuals with COVID-19 symptoms (case 1 and 2), while partial black fills indicate asymptomatic carriers of SARS-CoV-2 (case 3 and 4).'
CLIPS['frontiers_PMC7546332/F1'] = (1, [44.83, 64.37, 290.17, 306.61])
WHY_SINGLE['frontiers_PMC7546332/F2'] = 'one timeline chart'
SINGLE['frontiers_PMC7546332/F2'] = 'Timeline of the cases exposed to SARS-CoV-2.'
CLIPS['frontiers_PMC7546332/F2'] = (2, [44.83, 64.36, 550.45, 297.89])
WHY_SINGLE['hindawi_PMC4738914/fig1'] = 'one chart with its data table (splitter cut the table off)'
SINGLE['hindawi_PMC4738914/fig1'] = "Case of patient's platelet trend showing initial point one week prior to admission where ciprofloxacin was changed to levofloxacin, as well as trend throughout hospital stay. Levofloxacin was changed to cefepime on hospital day 4."
CLIPS['hindawi_PMC4738914/fig1'] = (1, [70.68, 71.77, 287.32, 201.48])
WHY_SINGLE['mdpi_PMC5454990/ijms-18-01081-f001'] = 'one stacked bar chart'
SINGLE['mdpi_PMC5454990/ijms-18-01081-f001'] = 'Distribution of compound classes in essential oils (Eos) of Ocotea species. Monoterpene hydrocarbons (MH), Oxygenated monoterpenoids (OM), Sesquiterpene hydrocarbons (SH), Oxygenated sesquiterpenoids (OS), Diterpenes (DT), Phenylpropanoids (PP), Alkanes, aldehydes, and ketones (AAK). O. floribunda leaves (Flo-L), O. veraguensis leaves (Ver-L), O. whitei leaves (Whi-L); * Literature data [22]. Cau-L (O. caudata leaves); Cau-B (O. caudata bark); Cuj-L (O. cujimary leaves); Cuj-B (O. cujimary bark); Can-L (O. caniculata leaves); Can-B (O. caniculata bark).'
CLIPS['mdpi_PMC5454990/ijms-18-01081-f001'] = (2, [179.67, 93.54, 412.57, 268.07])
WHY_SINGLE['mdpi_PMC5454990/ijms-18-01081-f002'] = 'one dendrogram'
SINGLE['mdpi_PMC5454990/ijms-18-01081-f002'] = 'Dendrogram with Complete Linkage and Correlation Coefficient Distance. * Literature data (Takaku et al., 2007 [21]).'
CLIPS['mdpi_PMC5454990/ijms-18-01081-f002'] = (7, [146.74, 237.9, 441.78, 421.67])
WHY_SINGLE['mdpi_PMC7589794/pathogens-09-00856-f002'] = 'one map'
SINGLE['mdpi_PMC7589794/pathogens-09-00856-f002'] = 'Global HEV genotype distribution. Different colors on the map indicate the distribution of HEV genotypes (HEV-1 through -4) across the globe. The figure was created using SimpleMappr, an online tool to produce publication-quality point maps [149].'
CLIPS['mdpi_PMC7589794/pathogens-09-00856-f002'] = (7, [81.88, 432.02, 506.39, 623.17])
WHY_SINGLE['mdpi_molecules21020186/molecules-21-00186-f001'] = 'one structure drawing'
SINGLE['mdpi_molecules21020186/molecules-21-00186-f001'] = 'Peltomexicanin, multiple long range correlations observed by HMBC.'
CLIPS['mdpi_molecules21020186/molecules-21-00186-f001'] = (2, [179.98, 343.86, 413.68, 507.78])
WHY_SINGLE['mdpi_molecules21020188/molecules-21-00188-f001'] = 'one structure drawing'
SINGLE['mdpi_molecules21020188/molecules-21-00188-f001'] = 'Structures of oleiferasaponins C4 and C5 (1, 2).'
CLIPS['mdpi_molecules21020188/molecules-21-00188-f001'] = (1, [132.75, 128.02, 463.29, 320.98])
WHY_SINGLE['plos_PMC12091794/pone.0322878.g001'] = 'one diagram'
SINGLE['plos_PMC12091794/pone.0322878.g001'] = 'Five basic concatenated steps are needed for an iterative DRA process, articulated by fluid risk communication. Steps 1 to 4 (painted in grey) were addressed in this study. Each step presents guiding questions to illustrate the main content addressed (Adapted from Jakob-Hoff [22]).'
CLIPS['plos_PMC12091794/pone.0322878.g001'] = (2, [36.0, 459.43, 396.0, 667.75])
WHY_SINGLE['plos_PMC12091794/pone.0322878.g002'] = 'one map with inset'
SINGLE['plos_PMC12091794/pone.0322878.g002'] = 'Hypothetical scenario for a marsh deer translocation case study. The map shows the source, Iberá National Park, and the destination, El Impenetrable National Park, illustrating the areas involved in the translocation. The arrow represents a conceptual depiction of the movement of the deer between these sites and is for illustrative purposes only. It does not correspond to the actual terrestrial route or precise path taken by the animals but is meant to highlight the general direction of movement. Map recreated in QGIS using geospatial layers from Instituto Geográfico Nacional de la República Argentina (IGN), Categorización de los Mamíferos de la Argentina, MAyDS & SAREM (CMA), and Sistema de Información sobre Biodiversidad – Administración de Parques Nacionales (SIB). Source: Instituto Geográfico Nacional (data accessed from https://www.ign.gob.ar/NuestrasActividades/InformacionGeoespacial/CapasSIG), Pereira et al. (2019), MAyDS & SAREM (data accessed from http://cma.sarem.org.ar), and SIB (https://sib.gob.ar/institucional/cartografia-parques-nacionales). Silhouettes of deer taken from http://www.philopic.org, freely available for reuse under Creative Commons licenses.'
CLIPS['plos_PMC12091794/pone.0322878.g002'] = (4, [36.0, 293.59, 396.0, 607.75])
WHY_SINGLE['plos_PMC12091794/pone.0322878.g003'] = 'one pathway drawing (splitter cut it in two)'
SINGLE['plos_PMC12091794/pone.0322878.g003'] = 'Hazard Transmission Pathway(s) and Critical Control Points (CCPs), identified for a hypothetical scenario of Marsh deer ground translocation from Source area (Iberá) to Destination area (Impenetrable) in Argentina and eventual contact with other animals. CCP1: On-Site Quarantine; CCP2: Ground Transport; CCP3: Pre-release Pen; CCP4: Transmission from/to translocated deer-livestock; CCP5: Transmission from/to translocated deer-wildlife; CCP6: translocated deer monitoring. Boxes represent confinement in human-made structures. Ticks with biohazard warning represent their plausible role as disease vectors. Animal silhouettes were taken from http://www.philopic.org, freely available for reuse under Creative Commons licenses and biohazard sign from http://www.openclipart.org with public domain.'
CLIPS['plos_PMC12091794/pone.0322878.g003'] = (6, [36.0, 411.75, 396.0, 627.75])
WHY_SINGLE['plos_PMC7458341/pntd.0008535.g002'] = 'one line chart'
SINGLE['plos_PMC7458341/pntd.0008535.g002'] = 'Monthly distribution of dengue cases in Guatemala (2000–2016). The mean annual number of cases is shown by a black line and the shaded areas describe the 95% confidence interval.'
CLIPS['plos_PMC7458341/pntd.0008535.g002'] = (4, [200.01, 78.01, 568.52, 274.56])
WHY_SINGLE['plos_PMC7458341/pntd.0008535.g003'] = 'one bar chart'
SINGLE['plos_PMC7458341/pntd.0008535.g003'] = 'Annual percentage of confirmed dengue cases by serotype. Cases detected by NS1 ELISA but not serotyped are designated DENV unknown.'
CLIPS['plos_PMC7458341/pntd.0008535.g003'] = (4, [200.01, 531.67, 389.37, 673.74])
WHY_SINGLE['plos_PMC7458341/pntd.0008535.g004'] = 'one faceted chart (one plot, serotype strips share the axes)'
SINGLE['plos_PMC7458341/pntd.0008535.g004'] = 'Median age of dengue cases per year. Error bars indicate interquartile range.'
CLIPS['plos_PMC7458341/pntd.0008535.g004'] = (5, [200.01, 78.01, 531.89, 520.5])
WHY_SINGLE['plos_PMC7514082/pntd.0007872.g001'] = 'one illustration'
SINGLE['plos_PMC7514082/pntd.0007872.g001'] = 'Opposing forces of new public health tools versus modern Anthropocene forces. NTD, neglected tropical disease.'
CLIPS['plos_PMC7514082/pntd.0007872.g001'] = (2, [200.01, 78.01, 503.6, 278.87])
WHY_SINGLE['plos_PMC7556465/pone.0240013.g001'] = 'one chart'
SINGLE['plos_PMC7556465/pone.0240013.g001'] = 'Epidemic curve of confirmed COVID-19 cases from March 15 –May 15. Epidemic curve of cases with log-linear regression line and 95% CI estimated before and after peak of 85 cases on March 30.'
CLIPS['plos_PMC7556465/pone.0240013.g001'] = (3, [149.5, 411.19, 575.94, 673.74])
WHY_SINGLE['plos_PMC7556465/pone.0240013.g002'] = 'one chart with two fitted curves (splitter cut it at the peak)'
SINGLE['plos_PMC7556465/pone.0240013.g002'] = 'Distribution of COVID-19 related deaths. Epidemic curve of COVID-19 associated deaths with log-linear regression line and 95% CI estimated before and after peak of 6 deaths around April 12.'
CLIPS['plos_PMC7556465/pone.0240013.g002'] = (4, [155.05, 78.01, 576.0, 340.55])
WHY_SINGLE['plos_PMC7556465/pone.0240013.g003'] = 'one chart'
SINGLE['plos_PMC7556465/pone.0240013.g003'] = 'Epidemic curve of COVID-19 confirmed cases and deaths associated with COVID-19. Epidemic curve of COVID-19 cases (gray) and deaths associated with COVID-19 (red) showing a 12-day phase shift between their peaks (log scale). The blue curve shows their smoothed shapes.'
CLIPS['plos_PMC7556465/pone.0240013.g003'] = (4, [155.04, 366.56, 576.0, 672.66])
WHY_SINGLE['plos_PMC7556465/pone.0240013.g004'] = 'one chart'
SINGLE['plos_PMC7556465/pone.0240013.g004'] = 'Gompertz model estimates of averted COVID-19 cases. COVID-19 confirmed cases (dots) from March 16 through March 28 (n = 292) were used to fit a Gompertz model (red line) to estimate the expected number of cases (n = 7,466), compared with the observed cases (green line), through May 15 (n = 1,311).'
CLIPS['plos_PMC7556465/pone.0240013.g004'] = (5, [154.77, 78.01, 575.94, 353.25])
WHY_SINGLE['plos_PMC7556465/pone.0240013.g005'] = 'one chart'
SINGLE['plos_PMC7556465/pone.0240013.g005'] = 'Gompertz model estimates of averted COVID-19 cases deaths. COVID-19 deaths (dots) from March 17 through March 26 (n = 20) were used to fit a Gompertz model (red line) to estimate the expected number of deaths (n = 354), compared with the observed deaths (green line), through May 31 (n = 143).'
CLIPS['plos_PMC7556465/pone.0240013.g005'] = (6, [154.77, 78.01, 575.94, 353.25])
WHY_SINGLE['plos_PMC7567380/pone.0240727.g001'] = 'one chart'
SINGLE['plos_PMC7567380/pone.0240727.g001'] = 'Fitted HIV incidence rate by region, United States 2010–2015. Fitted HIV incidence rate determined using a mixed-effects Poisson regression model including region, a fixed effect for year, and a random intercept.'
CLIPS['plos_PMC7567380/pone.0240727.g001'] = (5, [54.26, 78.01, 576.0, 489.09])
WHY_SINGLE['plos_PMC7567380/pone.0240727.g003'] = 'one faceted chart (four region facets share axes and legend; caption names no panel)'
SINGLE['plos_PMC7567380/pone.0240727.g003'] = 'Fitted HIV incidence rate by viral suppression in previous year (%) and U.S. region, 2011–2015. Fitted HIV incidence rate determined using a multivariable mixed-effects Poisson regression model including all variables in Table 3, fixed effects for year and 2010 HIV incidence rate and a random intercept.'
CLIPS['plos_PMC7567380/pone.0240727.g003'] = (7, [43.2, 78.01, 576.0, 497.48])
WHY_SINGLE['scielo_PMC7529449/f1'] = 'one state diagram'
SINGLE['scielo_PMC7529449/f1'] = 'Markov Model'
CLIPS['scielo_PMC7529449/f1'] = (3, [125.68, 258.53, 455.45, 467.74])
WHY_SINGLE['scielo_PMC7529449/f2'] = 'one flow chart (splitter cut it in two)'
SINGLE['scielo_PMC7529449/f2'] = 'Flowchart of the randomized clinical trial'
CLIPS['scielo_PMC7529449/f2'] = (4, [72.86, 488.03, 533.02, 709.39])
WHY_SINGLE['scielo_PMC7529449/f3'] = 'one chart'
SINGLE['scielo_PMC7529449/f3'] = 'Probabilistic sensitivity analysis'
CLIPS['scielo_PMC7529449/f3'] = (5, [171.95, 644.88, 406.37, 775.3])
WHY_SINGLE['scopemed_PMC5061480/F1'] = 'one bar chart (splitter cut off its axis labels)'
SINGLE['scopemed_PMC5061480/F1'] = 'Dose response of polyherbal formulation (PHF) pretreatment on hepatic cytochrome P450 mRNA level. Rats were given 50, 100 and 200 mg/kg/day of PHF for 1 week. Control rats received same volume of blank formulation for same time duration. Each value is expressed as mean ± standard error from three independent experiments. Asterisks indicate significant differences (*P < 0.05, **P < 0.01) from control'
CLIPS['scopemed_PMC5061480/F1'] = (4, [315.33, 61.21, 557.76, 209.57])
WHY_SINGLE['scopemed_PMC5061480/F4'] = 'one bar chart (splitter cut off its axis labels)'
SINGLE['scopemed_PMC5061480/F4'] = 'Time dependent effect of polyherbal formulation (PHF) pretreatment on hepatic cytochrome P450 mRNA level. Rats were given PHF (p.o 100 mg/kg/day) for 4 weeks and rats were sacrificed after every week. Control rats received the same volume of blank formulation for same time duration. Each value is expressed as mean ± standard error from three independent experiments. Asterisks indicate significant differences (*P < 0.05,**P < 0.01,***P < 0.001) from control'
CLIPS['scopemed_PMC5061480/F4'] = (6, [54.24, 228.61, 296.67, 385.37])
WHY_SINGLE['scopemed_PMC5061480/F7'] = 'one bar chart (splitter cut off its axis labels)'
SINGLE['scopemed_PMC5061480/F7'] = 'Effect of one week discontinuation of polyherbal formulation (PHF) treatment on hepatic CYPs mRNA level. Rats were treated with PHF (p.o 100 mg/kg/day) for one week and then PHF administration was discontinued for 1-week. Each value is expressed as mean ± standard error from three independent experiments. Asterisks indicate significant differences (*P < 0.05, ***P < 0.001) as compared to control'
CLIPS['scopemed_PMC5061480/F7'] = (7, [54.24, 240.94, 296.67, 383.3])
WHY_SINGLE['scopemed_PMC5061480/F8'] = 'one bar chart'
SINGLE['scopemed_PMC5061480/F8'] = 'Dose response of polyherbal formulation (PHF) pretreatment on intestinal CYPs mRNA level. Rats were given 50, 100 and 200 mg/kg/day of standardized PHF extract for 1-week and sacrificed on 8th day. Each value is expressed as mean ± standard error from three independent experiments. Asterisks indicate significant differences (*P < 0.05, **P < 0.01) from control'
CLIPS['scopemed_PMC5061480/F8'] = (7, [54.24, 463.09, 296.67, 605.69])
WHY_SINGLE['scopemed_PMC5061480/F11'] = 'one bar chart'
SINGLE['scopemed_PMC5061480/F11'] = 'Time dependent effect of polyherbal formulation (PHF) pretreatment on intestinal cytochrome P450 mRNA level. Rats were given PHF (p.o 100 mg/kg/day) for 4 weeks and rats were sacrificed after every week. Control rats received the same volume of blank formulation for same time duration. IC, IT1, IT2, IT3 and IT4 represents control group, 1-week pretreated group, 2 week pretreated group, 3 week pretreated group and 4 week pretreated group with PHF, respectively. Each value is expressed as mean ± standard error from three independent experiments. Asterisks indicate significant differences (*P < 0.05, **P < 0.01) from control'
CLIPS['scopemed_PMC5061480/F11'] = (8, [54.24, 444.13, 296.67, 608.09])
WHY_SINGLE['springer_PMC4569613/Fig2'] = 'one dendrogram'
SINGLE['springer_PMC4569613/Fig2'] = 'UPGMA cluster analysis of 17 Ocimum genotypes with Jaccard’s similarity coefficient of RAPD'
CLIPS['springer_PMC4569613/Fig2'] = (6, [85.04, 59.24, 510.32, 312.44])
WHY_SINGLE['springer_PMC4569613/Fig3'] = 'one dendrogram'
SINGLE['springer_PMC4569613/Fig3'] = 'UPGMA cluster analysis of 17 Ocimum genotypes with Jaccard’s similarity coefficient of ISSR'
CLIPS['springer_PMC4569613/Fig3'] = (8, [85.04, 59.24, 510.32, 264.5])
WHY_SINGLE['springer_PMC7309422/Fig1'] = 'one line chart'
SINGLE['springer_PMC7309422/Fig1'] = 'The total number of infectious respiratory diseases (green line) over a time period of 20 years (1999–2020). The dashed line indicates the overall monthly mean of diagnoses over this time period (84.5 ± 41.6), and the shaded area shows the upper and lower bounds of one standard deviation around this mean'
CLIPS['springer_PMC7309422/Fig1'] = (1, [55.02, 57.75, 541.42, 180.38])
WHY_SINGLE['springer_PMC7309422/Fig2'] = 'one line chart'
SINGLE['springer_PMC7309422/Fig2'] = 'The relative number of infectious respiratory diseases over a time period of 20 years (1999–2020). For each month, the total number of respiratory diseases is related to the total number of diagnoses in the physician practice (y-axis). The figure plots the seasons in which previous respiratory infections have been recorded (02/03 SARS-CoV, purple line; 04/05 H5N1, green line; 09/10 pandemic flu H1N1v, blue line), and those where this was not the case (grey lines). Regarding the pattern of respiratory diagnoses in the season 2019/20, we first used the monthly data until March 15 (red line). A red line is marked here and is a solid line from Aug to Mar. We further fitted a “potential” seasonal development of respiratory diseases for three scenarios (dashed red lines): (i) one where the share of respiratory diseases in July 2020 is equal to the average of respiratory diseases (indicated by “AVG”) over the month of July of the whole sample period of 20 years; (ii) one where this average is 1.5 times higher; (iii) one where this average is two times higher'
CLIPS['springer_PMC7309422/Fig2'] = (1, [54.89, 245.46, 286.3, 406.46])
WHY_SINGLE['springer_PMC7783296/Fig1'] = 'one overview diagram (sections, no letters; splitter cut it in six)'
SINGLE['springer_PMC7783296/Fig1'] = 'The ecosystem of modern data analytics using advanced machine learning methods with specific focus on application of DL to biological data mining. The biological data coming from various sources (e.g. sequence data from the Omics, various images from the [Medical/Bio]-Imaging, and signals from the [Brain/Body]–Machine Interfaces) are mined using DL with suitable architectures tailored for specific applications'
CLIPS['springer_PMC7783296/Fig1'] = (1, [56.26, 382.09, 539.01, 661.98])
EXCLUDED = {'bmj_PMC7412619/F2': 'the crop medfig made holds a column of article text beside the charts',
 'bmj_PMC7412619/F3': 'the crop medfig made holds a column of article text beside the charts',
 'elsevier_PMC3958920/f0005': 'A, B and C are one interleaved pathway drawing: no box separates them',
 'elsevier_PMC5991880/fig4': 'two molecule drawings, caption names no panels: single or compound is a matter of taste',
 'elsevier_PMC5991880/fig5': 'eight molecule drawings with names, caption names no panels: single or compound is a '
                             'matter of taste',
 'mdpi_PMC7598168/viruses-12-01062-f002': 'the crop medfig made is caption text, not the figure',
 'mdpi_molecules21020188/molecules-21-00188-f002': 'two numbered compound drawings (1, 2): molecule numbers, not '
                                                   'panels',
 'mdpi_molecules21020189/molecules-21-00189-f001': 'five named drug structures, caption names no panels: single or '
                                                   'compound is a matter of taste',
 'mdpi_molecules21020189/molecules-21-00189-f002': 'one design scheme of structure fragments, caption names no panels: '
                                                   'single or compound is a matter of taste',
 'micropub_PMC7252347/f1': 'the crop medfig made holds the affiliation lines above the gel',
 'micropub_PMC7812386/f1': 'not annotated: 13 lettered sub-panels with nested insets, left for lack of time'}
