import type { FollowUp } from '@contract/knowledge/analysis'

/*
 * The guidelines the follow-up texts quote, each interval as the guideline states it (REVIEW.md).
 * Fleischner applies to nodules found by chance in adults of 35 and over; not to lung-cancer
 * screening (Lung-RADS), people with a known cancer, or weakened immunity.
 */

export const FLEISCHNER = 'Fleischner Society 2017 偶发肺结节处理指南'
export const LUNG_RADS = 'ACR Lung-RADS v2022（肺癌筛查）'
export const CHINA_LUNG_SCREENING = '中国肺癌筛查与早诊早治指南（2021，北京）'
export const BI_RADS = 'ACR BI-RADS 第 5 版（2013）'
export const BOSNIAK = 'Bosniak 分级 2019 版'
export const SVS_AAA = '美国血管外科学会（SVS）2018 腹主动脉瘤指南'
export const ESE_ADRENAL = '欧洲内分泌学会/ENSAT 2016 肾上腺意外瘤指南'
export const GALLBLADDER_POLYP = '2022 欧洲胆囊息肉联合指南（ESGAR/EAES/EFISDS/ESGE）'

export const FLEISCHNER_SOLID: FollowUp = {
  text:
    '单个实性结节：小于 6 mm、低风险者一般不需要常规复查；6–8 mm 建议 6–12 个月复查 CT；' +
    '大于 8 mm 可考虑 3 个月复查 CT、PET/CT 或取组织检查。适用于 35 岁及以上偶然发现的结节，' +
    '不适用于肺癌筛查或已有肿瘤的人。',
  source: FLEISCHNER,
}

export const FLEISCHNER_MULTIPLE_SOLID: FollowUp = {
  text:
    '多发实性结节：都小于 6 mm、低风险者一般不需要常规复查；有 6 mm 及以上的，' +
    '建议 3–6 个月复查 CT，之后可考虑 18–24 个月再复查。处理以最可疑的那一个为准。',
  source: FLEISCHNER,
}

export const FLEISCHNER_GROUND_GLASS: FollowUp = {
  text:
    '单个纯磨玻璃结节：小于 6 mm 一般不需要常规复查；6 mm 及以上建议 6–12 个月复查 CT，' +
    '确认仍在后每 2 年复查一次，直到满 5 年。',
  source: FLEISCHNER,
}

export const FLEISCHNER_PART_SOLID: FollowUp = {
  text:
    '单个部分实性结节：小于 6 mm 一般不需要常规复查；6 mm 及以上建议 3–6 个月复查 CT，' +
    '若没有变化且实性部分小于 6 mm，之后每年复查一次，共 5 年；实性部分达到 6 mm 及以上时更需警惕，' +
    '医生会进一步评估。',
  source: FLEISCHNER,
}

export const FLEISCHNER_SMALL: FollowUp = {
  text:
    '小于 6 mm 的实性结节，低风险者一般不需要常规复查，高风险者可考虑 12 个月复查 CT；' +
    '小于 6 mm 的纯磨玻璃结节一般不需要常规复查。',
  source: FLEISCHNER,
}

export const LUNG_RADS_FOLLOW_UP: FollowUp = {
  text:
    '1、2 类：12 个月后继续每年一次低剂量 CT 筛查；3 类：6 个月后复查低剂量 CT；' +
    '4A 类：3 个月后复查低剂量 CT（实性成分 8 mm 及以上时可考虑 PET/CT）；' +
    '4B 类：胸部 CT（可增强）、PET/CT 和/或取组织检查。',
  source: LUNG_RADS,
}

export const CHINA_LDCT_FOLLOW_UP: FollowUp = {
  text: '肺癌高风险人群建议每年做一次低剂量 CT 筛查，发现结节后按结节的大小和密度决定复查时间。',
  source: CHINA_LUNG_SCREENING,
}

export const BI_RADS_FOLLOW_UP: FollowUp = {
  text:
    '0 类：需要补充其他检查再评估；1、2 类：按常规定期筛查；3 类：通常约 6 个月后短期复查；' +
    '4、5 类：一般建议活检（取组织化验）；6 类：已经活检证实，按治疗方案处理。',
  source: BI_RADS,
}

export const BOSNIAK_FOLLOW_UP: FollowUp = {
  text:
    'I、II 类几乎都是良性，一般不需要随访；IIF 类需要定期影像复查（一般随访 5 年）；' +
    'III、IV 类需要泌尿外科医生评估，常考虑手术或密切观察。',
  source: BOSNIAK,
}

export const SVS_AAA_FOLLOW_UP: FollowUp = {
  text:
    '直径 3.0–3.9 cm 约每 3 年复查一次超声；4.0–4.9 cm 每年一次；5.0–5.4 cm 每 6 个月一次；' +
    '一般达到 5.5 cm 及以上、增长快或有症状时考虑手术。',
  source: SVS_AAA,
}

export const ESE_ADRENAL_FOLLOW_UP: FollowUp = {
  text:
    '小于 4 cm、密度均匀且平扫 CT 值不超过 10 HU 的结节是良性腺瘤，一般不需要再做影像复查；' +
    '同时建议做激素检查，看它有没有分泌过多的激素。',
  source: ESE_ADRENAL,
}

export const GALLBLADDER_POLYP_FOLLOW_UP: FollowUp = {
  text: '息肉达到 10 mm 及以上时，一般建议请外科评估是否切除胆囊；更小的息肉由医生按有无危险因素安排超声复查。',
  source: GALLBLADDER_POLYP,
}
