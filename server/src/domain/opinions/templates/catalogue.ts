import type { ReportTemplate } from '@contract/main/opinions'
import { choice, closing, multi, number, section, text } from './builder'

/*
 * The built-in report templates (the spec's "report model" service). Each follows the structure of
 * the RSNA RadReport template of that study (radreport.org: free to reuse, IHE MRRT form), written
 * again in Chinese for an expert who reads images a patient brought: the sections a radiologist
 * walks through, pick-lists where the usual answers are few, and the normal finding as default text
 * so the expert edits only what differs. A template's `version` goes up when its fields change: a
 * signed opinion keeps the version (and the text) it was signed with.
 *
 * Field ids are stable: pins and AI drafts name a field by its id (the demo AI fills chest-ct's
 * `lungs`).
 */

const TECHNIQUE_CT = ['平扫', '平扫 + 增强', '增强']
const TECHNIQUE_MR = ['平扫', '平扫 + 增强']

const chestCt: ReportTemplate = {
  id: 'chest-ct',
  version: 1,
  title: '胸部 CT',
  modality: 'CT',
  bodyPart: '胸部',
  source: 'RSNA RadReport「CT Chest」（radreport.org，IHE MRRT）中文改写',
  variant: null,
  sections: [
    section('technique', '检查技术', 'findings', [
      choice('technique', '扫描方式', TECHNIQUE_CT, { default: '平扫' }),
    ]),
    section('lung', '肺与气道', 'findings', [
      text('lungs', '肺实质', {
        default: '双肺纹理清晰，肺实质内未见明确实变及异常密度影。',
      }),
      text('nodules', '肺结节', {
        default: '未见明确肺结节。',
        placeholder:
          '位置（肺叶、肺段）、类型（实性 / 部分实性 / 磨玻璃）、大小（mm）、边缘、与既往对比',
      }),
      choice(
        'airways',
        '气道',
        ['气管及各级支气管通畅', '支气管壁增厚', '支气管扩张', '管腔狭窄或阻塞'],
        {
          default: '气管及各级支气管通畅',
        },
      ),
    ]),
    section('mediastinum', '纵隔与心脏', 'findings', [
      text('mediastinum', '纵隔与淋巴结', {
        default: '纵隔居中，未见明确肿大淋巴结（短径 ≥ 10 mm）。',
      }),
      text('heart-vessels', '心脏与大血管', {
        default: '心影大小正常，心包未见积液，主动脉及肺动脉主干管径正常。',
      }),
    ]),
    section('pleura', '胸膜', 'findings', [
      multi(
        'pleura',
        '胸膜与胸腔',
        ['未见胸腔积液', '少量胸腔积液', '胸膜增厚', '胸膜钙化', '气胸'],
        {
          default: ['未见胸腔积液'],
        },
      ),
    ]),
    section('others', '骨骼与其他', 'findings', [
      text('bones-soft-tissue', '胸壁、骨骼及扫描范围内上腹部', {
        default: '胸壁软组织及所见骨骼未见明确异常。',
      }),
    ]),
    ...closing('对影像所见的综合判断：性质倾向、与症状的关系、需要关注的要点'),
  ],
}

const lungNodule: ReportTemplate = {
  id: 'lung-nodule-followup',
  version: 1,
  title: '肺结节随访 CT',
  modality: 'CT',
  bodyPart: '胸部',
  source:
    'RSNA RadReport「Lung Nodule」与 ACR Lung-RADS v2022 报告要素（radreport.org）中文改写；随访间隔依 Fleischner Society 2017 / Lung-RADS v2022',
  variant: null,
  sections: [
    section('comparison', '对比', 'findings', [
      text('comparison', '对比的既往检查', {
        placeholder: '既往检查的日期与医院；无既往检查写“无”',
        required: true,
      }),
    ]),
    section('nodule', '主要结节', 'findings', [
      text('nodule-location', '位置', { placeholder: '如：右肺上叶尖段', required: true }),
      choice('nodule-type', '类型', ['实性结节', '部分实性结节', '磨玻璃结节'], { required: true }),
      number('nodule-size', '平均直径', 'mm', { required: true }),
      number('nodule-solid', '实性成分直径（部分实性时）', 'mm'),
      multi(
        'nodule-features',
        '形态特征',
        ['边缘光整', '分叶', '毛刺', '胸膜牵拉', '空泡征', '钙化', '空洞'],
        {
          default: ['边缘光整'],
        },
      ),
      choice(
        'nodule-change',
        '与既往相比',
        ['首次发现', '大小稳定', '增大', '缩小', '实性成分增加', '吸收消失'],
        {
          required: true,
        },
      ),
    ]),
    section('other-nodules', '其他结节与所见', 'findings', [
      text('other-nodules', '其他结节', { default: '余肺未见新发结节。' }),
      text('other-findings', '其他所见', { default: '无其他需特别说明的所见。' }),
    ]),
    section('category', '分类', 'impression', [
      choice(
        'lung-rads',
        'Lung-RADS 分类（筛查时）',
        ['不适用（非筛查）', '1', '2', '3', '4A', '4B', '4X'],
        {
          default: '不适用（非筛查）',
        },
      ),
    ]),
    ...closing('结节的性质倾向（良性可能大 / 需随访 / 可疑恶性）及依据'),
  ],
}

const headCt: ReportTemplate = {
  id: 'head-ct',
  version: 1,
  title: '头颅 CT',
  modality: 'CT',
  bodyPart: '头部',
  source: 'RSNA RadReport「CT Head」（radreport.org，IHE MRRT）中文改写',
  variant: null,
  sections: [
    section('technique', '检查技术', 'findings', [
      choice('technique', '扫描方式', TECHNIQUE_CT, { default: '平扫' }),
    ]),
    section('brain', '脑实质', 'findings', [
      text('parenchyma', '脑实质', {
        default: '脑实质密度均匀，灰白质分界清楚，未见明确出血、梗死或占位。',
      }),
      multi(
        'hemorrhage',
        '出血',
        ['未见颅内出血', '脑实质内出血', '蛛网膜下腔出血', '硬膜下血肿', '硬膜外血肿'],
        {
          default: ['未见颅内出血'],
        },
      ),
    ]),
    section('csf', '脑室与脑池', 'findings', [
      choice('ventricles', '脑室系统', ['大小形态正常', '轻度扩大', '明显扩大', '受压变形'], {
        default: '大小形态正常',
      }),
      text('midline', '中线结构', { default: '中线结构居中。' }),
    ]),
    section('others', '颅骨与其他', 'findings', [
      text('skull', '颅骨及头皮软组织', { default: '颅骨未见骨折及骨质破坏。' }),
      text('sinuses', '鼻窦与乳突', { default: '所见鼻窦及乳突气化良好。' }),
    ]),
    ...closing('对颅内所见的综合判断'),
  ],
}

const brainMr: ReportTemplate = {
  id: 'brain-mr',
  version: 1,
  title: '头颅 MR',
  modality: 'MR',
  bodyPart: '头部',
  source: 'RSNA RadReport「MR Brain」（radreport.org，IHE MRRT）中文改写',
  variant: null,
  sections: [
    section('technique', '检查技术', 'findings', [
      choice('technique', '扫描方式', TECHNIQUE_MR, { default: '平扫' }),
      multi('sequences', '序列', ['T1WI', 'T2WI', 'FLAIR', 'DWI', 'SWI', 'MRA'], {
        default: ['T1WI', 'T2WI', 'FLAIR', 'DWI'],
      }),
    ]),
    section('brain', '脑实质', 'findings', [
      text('parenchyma', '脑实质信号', {
        default: '脑实质内未见明确异常信号，灰白质分界清楚。',
      }),
      choice('dwi', '弥散（DWI）', ['未见弥散受限', '可见弥散受限灶'], { default: '未见弥散受限' }),
      text('white-matter', '白质', {
        default: '未见明确白质高信号。',
        placeholder: '白质高信号的部位与程度（Fazekas 分级）',
      }),
    ]),
    section('csf', '脑室与脑池', 'findings', [
      choice('ventricles', '脑室系统', ['大小形态正常', '轻度扩大', '明显扩大'], {
        default: '大小形态正常',
      }),
    ]),
    section('others', '其他', 'findings', [
      text('others', '垂体、眼眶、鼻窦等扫描范围内结构', { default: '未见明确异常。' }),
    ]),
    ...closing('对颅内所见的综合判断'),
  ],
}

const abdomenCt: ReportTemplate = {
  id: 'abdomen-ct',
  version: 1,
  title: '腹部 CT',
  modality: 'CT',
  bodyPart: '腹部',
  source: 'RSNA RadReport「CT Abdomen and Pelvis」（radreport.org，IHE MRRT）中文改写',
  variant: null,
  sections: [
    section('technique', '检查技术', 'findings', [
      choice('technique', '扫描方式', TECHNIQUE_CT, { default: '平扫 + 增强' }),
    ]),
    section('solid-organs', '实质脏器', 'findings', [
      text('liver', '肝脏', { default: '肝脏大小形态正常，实质密度均匀，未见明确占位。' }),
      text('gallbladder', '胆囊与胆管', {
        default: '胆囊不大，壁不厚，腔内未见异常密度；肝内外胆管未见扩张。',
      }),
      text('pancreas', '胰腺', { default: '胰腺大小形态正常，胰管未见扩张。' }),
      text('spleen', '脾脏', { default: '脾脏大小正常，密度均匀。' }),
      text('kidneys', '肾脏与肾上腺', {
        default: '双肾及肾上腺形态正常，未见结石及占位，肾盂未见积水。',
      }),
    ]),
    section('hollow', '胃肠与腹腔', 'findings', [
      text('bowel', '胃肠道', { default: '所见胃肠道未见明确管壁增厚及梗阻征象。' }),
      multi(
        'peritoneum',
        '腹腔与腹膜后',
        ['未见腹水', '少量腹水', '腹膜后淋巴结肿大', '游离气体'],
        {
          default: ['未见腹水'],
        },
      ),
    ]),
    section('others', '血管、骨骼与其他', 'findings', [
      text('vessels', '腹主动脉', { default: '腹主动脉管径正常。' }),
      text('bones', '所见骨骼', { default: '所见骨骼未见明确骨质破坏。' }),
    ]),
    ...closing('对腹部所见的综合判断'),
  ],
}

const spineMr: ReportTemplate = {
  id: 'spine-mr',
  version: 1,
  title: '脊柱 MR',
  modality: 'MR',
  bodyPart: '脊柱',
  source:
    'RSNA RadReport「MR Lumbar Spine」（radreport.org，IHE MRRT）中文改写，适用于颈、胸、腰椎',
  variant: null,
  sections: [
    section('technique', '检查技术', 'findings', [
      choice('segment', '检查节段', ['颈椎', '胸椎', '腰椎'], { default: '腰椎', required: true }),
    ]),
    section('alignment', '序列与椎体', 'findings', [
      choice(
        'alignment',
        '生理曲度与序列',
        ['曲度及序列正常', '生理曲度变直', '侧弯', '椎体滑脱'],
        {
          default: '曲度及序列正常',
        },
      ),
      text('vertebrae', '椎体', { default: '椎体形态及信号未见明确异常，未见骨折。' }),
    ]),
    section('discs', '椎间盘', 'findings', [
      text('discs', '各椎间盘', {
        default: '各椎间盘信号及形态未见明确异常。',
        placeholder: '逐个写明节段：膨出 / 突出（方向）/ 脱出，对硬膜囊、神经根的压迫',
      }),
      choice('canal', '椎管', ['椎管未见狭窄', '轻度狭窄', '中度狭窄', '重度狭窄'], {
        default: '椎管未见狭窄',
      }),
    ]),
    section('cord', '脊髓与神经', 'findings', [
      text('cord', '脊髓 / 马尾', { default: '脊髓（或马尾）形态及信号未见明确异常。' }),
      text('paraspinal', '椎旁软组织', { default: '椎旁软组织未见明确异常。' }),
    ]),
    ...closing('对椎体、椎间盘与神经受压情况的综合判断'),
  ],
}

const kneeMr: ReportTemplate = {
  id: 'knee-mr',
  version: 1,
  title: '膝关节 MR',
  modality: 'MR',
  bodyPart: '膝关节',
  source: 'RSNA RadReport「MR Knee」（radreport.org，IHE MRRT）中文改写',
  variant: null,
  sections: [
    section('technique', '检查技术', 'findings', [
      choice('side', '侧别', ['左膝', '右膝'], { required: true }),
    ]),
    section('menisci', '半月板', 'findings', [
      text('medial-meniscus', '内侧半月板', { default: '内侧半月板形态及信号未见明确异常。' }),
      text('lateral-meniscus', '外侧半月板', { default: '外侧半月板形态及信号未见明确异常。' }),
    ]),
    section('ligaments', '韧带', 'findings', [
      choice('acl', '前交叉韧带', ['完整', '部分撕裂', '完全撕裂', '术后改变'], {
        default: '完整',
      }),
      choice('pcl', '后交叉韧带', ['完整', '部分撕裂', '完全撕裂'], { default: '完整' }),
      text('collaterals', '内、外侧副韧带', { default: '内、外侧副韧带连续，信号未见异常。' }),
    ]),
    section('cartilage', '软骨与骨', 'findings', [
      text('cartilage', '关节软骨', { default: '关节软骨厚度及信号未见明确异常。' }),
      text('bone', '骨髓', { default: '所见骨髓信号未见明确异常，未见骨挫伤。' }),
      multi('effusion', '关节腔', ['未见积液', '少量积液', '中等量积液', '腘窝囊肿'], {
        default: ['未见积液'],
      }),
    ]),
    ...closing('对膝关节结构损伤的综合判断'),
  ],
}

const chestXray: ReportTemplate = {
  id: 'chest-xray',
  version: 1,
  title: '胸部 X 线（胸片）',
  modality: 'DX',
  bodyPart: '胸部',
  source: 'RSNA RadReport「Chest Radiograph」（radreport.org，IHE MRRT）中文改写',
  variant: null,
  sections: [
    section('technique', '检查技术', 'findings', [
      multi('views', '投照体位', ['后前位', '侧位', '床旁前后位'], { default: ['后前位'] }),
    ]),
    section('lungs', '肺', 'findings', [
      text('lungs', '肺野', { default: '双肺纹理清晰，肺野内未见明确实变及占位。' }),
      text('hila', '肺门', { default: '双肺门不大。' }),
    ]),
    section('heart', '心脏与纵隔', 'findings', [
      choice('heart-size', '心影', ['心影大小正常', '心影增大'], { default: '心影大小正常' }),
      text('mediastinum', '纵隔', { default: '纵隔居中，未见增宽。' }),
    ]),
    section('pleura', '胸膜与膈', 'findings', [
      text('pleura', '胸膜、膈面与肋膈角', { default: '双侧膈面光整，肋膈角锐利。' }),
      text('bones', '所见骨骼', { default: '所见骨骼未见明确异常。' }),
    ]),
    ...closing('对胸片所见的综合判断'),
  ],
}

/** In the order 选择模板 shows them. */
export const BUILT_IN_TEMPLATES: readonly ReportTemplate[] = [
  chestCt,
  lungNodule,
  headCt,
  brainMr,
  abdomenCt,
  spineMr,
  kneeMr,
  chestXray,
]
