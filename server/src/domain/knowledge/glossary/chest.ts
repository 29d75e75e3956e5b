import { inCategory } from './types'
import {
  CHINA_LDCT_FOLLOW_UP,
  BI_RADS_FOLLOW_UP,
  FLEISCHNER_GROUND_GLASS,
  FLEISCHNER_MULTIPLE_SOLID,
  FLEISCHNER_PART_SOLID,
  FLEISCHNER_SMALL,
  FLEISCHNER_SOLID,
  LUNG_RADS_FOLLOW_UP,
} from './sources'

/** 胸部与乳腺: lungs, pleura, heart and great vessels as a chest scan shows them, and the breast. */
export const CHEST = inCategory('chest', [
  {
    id: 'chest.pulmonary-nodule',
    term: '肺结节',
    aliases: ['肺部结节', '肺小结节', '肺内结节'],
    explanation:
      '肺结节是肺里直径不超过 3 cm 的圆形或类圆形小病灶。体检 CT 中很常见，绝大多数是良性的，' +
      '比如陈旧的炎症、肺内淋巴结或小的良性肿瘤。医生主要看它的大小、密度（实性还是磨玻璃）和形态来决定是否需要复查。',
    followUp: FLEISCHNER_SOLID,
  },
  {
    id: 'chest.solid-nodule',
    term: '实性结节',
    aliases: ['实性小结节', '实性肺结节'],
    explanation:
      '实性结节是 CT 上密度较高、能完全遮住其中血管的结节。小的实性结节大多是良性，' +
      '比如陈旧炎症或肺内淋巴结。是否需要复查、多久复查，主要看结节大小和个人的肺癌风险。',
    followUp: FLEISCHNER_SOLID,
  },
  {
    id: 'chest.ground-glass-nodule',
    term: '磨玻璃结节',
    aliases: ['毛玻璃结节', '纯磨玻璃结节', '磨玻璃密度结节', 'GGO', 'GGN', 'pGGN'],
    explanation:
      '磨玻璃结节是肺里一小片淡淡的云雾状影，像隔着磨砂玻璃看东西，其中的血管仍能看见。' +
      '它可能是炎症、出血，也可能是早期的腺癌或癌前病变，但多数长得很慢。' +
      '短期复查如果消失，多为炎症；持续存在的需要按医生建议定期复查。',
    followUp: FLEISCHNER_GROUND_GLASS,
  },
  {
    id: 'chest.part-solid-nodule',
    term: '部分实性结节',
    aliases: ['混合磨玻璃结节', '混合性磨玻璃结节', '混杂磨玻璃结节', 'mGGN'],
    explanation:
      '部分实性结节是磨玻璃影里又有一部分实性成分的结节。和纯磨玻璃结节相比，它是早期肺癌的可能性更高一些，' +
      '实性成分越大越需要重视。医生会结合复查时的变化决定是继续观察还是进一步检查。',
    followUp: FLEISCHNER_PART_SOLID,
  },
  {
    id: 'chest.subsolid-nodule',
    term: '亚实性结节',
    aliases: ['非实性结节'],
    explanation:
      '亚实性结节是纯磨玻璃结节和部分实性结节的统称，指密度比实性结节淡、里面还能看到血管的结节。' +
      '它们多数长得很慢，一般需要比实性结节复查更长的时间，具体看是哪一种以及大小。',
  },
  {
    id: 'chest.multiple-nodules',
    term: '多发结节',
    aliases: ['多发肺结节', '多发小结节', '两肺多发结节'],
    explanation:
      '多发结节是指肺里不止一个结节。多个小结节常见于以前的感染或炎症留下的痕迹，多数是良性的。' +
      '医生会以其中最大、最可疑的那个来决定是否复查。',
    followUp: FLEISCHNER_MULTIPLE_SOLID,
  },
  {
    id: 'chest.micronodule',
    term: '微小结节',
    aliases: ['肺微小结节', '微结节'],
    explanation:
      '微小结节一般指直径小于 5 mm 的结节。这么小的结节绝大多数是良性的，恶性的可能性很低。' +
      '多数人不需要特别处理，是否复查由医生结合个人风险决定。',
    followUp: FLEISCHNER_SMALL,
  },
  {
    id: 'chest.lung-rads',
    term: 'Lung-RADS',
    aliases: ['Lung RADS', 'LungRADS'],
    explanation:
      'Lung-RADS 是美国放射学会为肺癌筛查（低剂量 CT）制定的分类方法，把结果分成 0、1、2、3、4A、4B、4X 等类别。' +
      '数字越大，医生越怀疑需要进一步检查；1、2 类属于阴性或良性表现。',
    followUp: LUNG_RADS_FOLLOW_UP,
  },
  {
    id: 'chest.low-dose-ct',
    term: '低剂量CT',
    aliases: ['低剂量 CT', '低剂量螺旋CT', '低剂量胸部CT', '低剂量胸部 CT', 'LDCT'],
    explanation:
      '低剂量 CT 是用比普通 CT 少得多的射线做的胸部 CT，主要用于肺癌筛查和结节复查。' +
      '它对发现肺结节很灵敏，辐射量较小，但看纵隔和其他器官不如普通 CT 清楚。',
    followUp: CHINA_LDCT_FOLLOW_UP,
  },
  {
    id: 'chest.ground-glass-opacity',
    term: '磨玻璃影',
    aliases: ['毛玻璃影', '磨玻璃密度影', '磨玻璃样改变', '磨玻璃样影'],
    explanation:
      '磨玻璃影是肺里一片淡淡的、像隔着磨砂玻璃的影子，范围可大可小，不一定成团。' +
      '常见原因是炎症、感染、少量出血或间质性肺病。很多在治疗或过几周后会吸收，医生常会安排复查看它有没有变化。',
  },
  {
    id: 'chest.consolidation',
    term: '实变',
    aliases: ['实变影', '肺实变'],
    explanation:
      '实变是指肺里本来充满空气的地方被液体、炎症细胞等填满，CT 上变成一片白色密实的影。' +
      '最常见的原因是肺炎，也可见于肺不张等情况。肺炎治疗后一般需要复查，看是否吸收。',
  },
  {
    id: 'chest.fibrous-strand',
    term: '条索影',
    aliases: ['索条影', '纤维条索影', '纤维索条影', '条索状影'],
    explanation:
      '条索影是肺里细长的线条状影子，多是以前炎症或感染愈合后留下的疤痕（纤维化）。' +
      '一般是良性、稳定的表现，通常不需要治疗。',
  },
  {
    id: 'chest.fibrous-focus',
    term: '纤维灶',
    aliases: ['纤维化灶', '纤维增殖灶', '陈旧性纤维灶'],
    explanation:
      '纤维灶是肺里的小疤痕，通常是以前的炎症、感染（包括结核）愈合后留下的。' +
      '它本身一般不需要治疗，也不会传染，多数情况下不需要特别复查。',
  },
  {
    id: 'chest.emphysema',
    term: '肺气肿',
    aliases: ['肺气肿改变'],
    explanation:
      '肺气肿是肺里最小的气囊（肺泡）被破坏、变大，肺的弹性变差，常见于长期吸烟的人。' +
      '轻度可能没有症状，重的会气短。戒烟最重要，是否需要治疗请看呼吸科医生。',
  },
  {
    id: 'chest.bulla',
    term: '肺大疱',
    aliases: ['肺大泡', '肺大疱形成'],
    explanation:
      '肺大疱是肺里一个充满空气的薄壁大气泡，直径一般超过 1 cm。小的肺大疱通常不需要处理；' +
      '少数会破裂引起气胸，突然胸痛、气短时要及时就医。',
  },
  {
    id: 'chest.bronchiectasis',
    term: '支气管扩张',
    aliases: ['支扩', '支气管扩张症'],
    explanation:
      '支气管扩张是气管的分支长期受损后变粗、变形，痰不容易排出，容易反复感染。' +
      '轻的可能只是影像上的发现；常咳嗽、咳痰或咯血的人需要呼吸科医生评估。',
  },
  {
    id: 'chest.pleural-effusion',
    term: '胸腔积液',
    aliases: ['胸水', '胸腔少量积液'],
    explanation:
      '胸腔积液是肺和胸壁之间的空隙里积了液体。原因很多，如心功能不全、炎症、结核或肿瘤等，' +
      '少量积液有时没有症状。医生会根据积液多少和病史查找原因。',
  },
  {
    id: 'chest.pleural-thickening',
    term: '胸膜增厚',
    aliases: ['胸膜肥厚', '胸膜局限性增厚'],
    explanation:
      '胸膜增厚是包着肺的那层薄膜变厚了，多数是以前炎症、结核或胸腔积液吸收后留下的痕迹。' +
      '局部、稳定的增厚一般不需要处理。',
  },
  {
    id: 'chest.pleural-adhesion',
    term: '胸膜粘连',
    aliases: ['胸膜粘连带'],
    explanation:
      '胸膜粘连是肺表面的胸膜和胸壁的胸膜因为以前的炎症粘在了一起，是愈合后的痕迹。一般不需要治疗。',
  },
  {
    id: 'chest.atelectasis',
    term: '肺不张',
    aliases: ['肺膨胀不全', '盘状肺不张', '节段性肺不张'],
    explanation:
      '肺不张是一部分肺没有完全张开、里面的空气变少。小片的（如盘状肺不张）常见于呼吸浅、卧床或术后，' +
      '往往会自行恢复；大片的可能是气道被堵住，需要医生找原因。',
  },
  {
    id: 'chest.interstitial',
    term: '间质性改变',
    aliases: ['间质性病变', '肺间质病变', '间质性肺病', '肺间质纤维化'],
    explanation:
      '间质性改变是指肺泡之间的支架组织（间质）增厚或纤维化，CT 上可见网格、磨玻璃等表现。' +
      '原因很多，如炎症、免疫病、职业粉尘或药物。轻微的可以观察，明显的需要呼吸科医生评估。',
  },
  {
    id: 'chest.increased-markings',
    term: '肺纹理增多',
    aliases: ['肺纹理增粗', '纹理增多', '纹理稍增多', '纹理增粗', '肺纹理增重'],
    explanation:
      '肺纹理是胸片或 CT 上肺里的血管和支气管的影子。纹理增多、增粗常见于吸烟、慢性支气管炎、' +
      '感冒或肺部感染之后，也可能只是拍片条件或体型造成的。单独出现一般不严重，请结合自己的症状看医生。',
  },
  {
    id: 'chest.lobulation',
    term: '分叶',
    aliases: ['分叶征', '浅分叶', '分叶状'],
    explanation:
      '分叶是指结节的边缘不是圆滑的，而是像几片花瓣拼在一起那样凹凸起伏。' +
      '它是医生判断结节性质时参考的一个特征，恶性结节中更常见，但良性结节也可以有。报告写“未见分叶”是好的描述。',
  },
  {
    id: 'chest.spiculation',
    term: '毛刺',
    aliases: ['毛刺征', '短毛刺', '细毛刺'],
    explanation:
      '毛刺是结节边缘向周围伸出的细短线条，像刺一样。它在恶性结节中更常见，是医生重视的特征之一；' +
      '炎症结节也可能有。报告写“未见毛刺”是好的描述。',
  },
  {
    id: 'chest.pleural-indentation',
    term: '胸膜牵拉',
    aliases: ['胸膜凹陷', '胸膜凹陷征', '胸膜牵拉征'],
    explanation:
      '胸膜牵拉是靠近胸膜的结节把胸膜往里拉，形成一个小凹陷或线条。它在恶性结节中更常见，' +
      '但疤痕等良性病变也可以引起。医生会把它和结节的其他特征一起考虑。',
  },
  {
    id: 'chest.cavity',
    term: '空洞',
    aliases: ['空洞影', '空洞形成'],
    explanation:
      '空洞是病灶中间坏死、排出后留下的含气空腔。可见于结核、肺脓肿、真菌感染，也可见于肿瘤。' +
      '医生会根据空洞壁的厚薄和症状进一步检查。',
  },
  {
    id: 'chest.vacuole-sign',
    term: '空泡征',
    aliases: ['小泡征'],
    explanation:
      '空泡征是结节里有一个或几个很小的含气小点。它在早期肺腺癌中较常见，但不能单凭它下结论，' +
      '医生会结合结节的大小、密度和复查变化来判断。',
  },
  {
    id: 'chest.tree-in-bud',
    term: '树芽征',
    aliases: ['树芽状影'],
    explanation:
      '树芽征是 CT 上细小支气管被分泌物填满，看起来像发芽的树枝。它多见于感染，如细菌、结核或其他小气道炎症，' +
      '通常需要医生结合症状判断是否治疗。',
  },
  {
    id: 'chest.old-tuberculosis',
    term: '陈旧性肺结核',
    aliases: ['陈旧性结核', '陈旧肺结核', '陈旧结核灶', '陈旧性结核灶'],
    explanation:
      '陈旧性肺结核是以前得过、已经愈合的肺结核留下的痕迹，如纤维灶、钙化。' +
      '它通常没有传染性，不需要治疗；如果出现咳嗽、低热、消瘦等症状，要及时就医排除复发。',
  },
  {
    id: 'chest.hamartoma',
    term: '肺错构瘤',
    aliases: [],
    explanation:
      '错构瘤是肺里最常见的良性肿瘤，由软骨、脂肪等正常组织长乱了形成，常含有“爆米花样”钙化或脂肪。' +
      '它几乎不会变成恶性，多数只需要观察。',
  },
  {
    id: 'chest.sarcoidosis',
    term: '结节病',
    aliases: ['肺结节病'],
    explanation:
      '结节病是一种原因不明、全身多处可出现小肉芽肿的疾病，最常累及肺和肺门、纵隔淋巴结，和“肺结节”不是一回事。' +
      '不少人没有症状，可以自行缓解；是否需要治疗请呼吸科医生评估。',
  },
  {
    id: 'chest.hilum',
    term: '肺门',
    aliases: ['肺门影', '双肺门'],
    explanation:
      '肺门是两侧肺靠近心脏的地方，血管、支气管和淋巴结从这里进出肺。' +
      '报告写“肺门不大”或“肺门影正常”是正常描述；肺门增大可能与血管或淋巴结有关，需要医生解释。',
  },
  {
    id: 'chest.mediastinum',
    term: '纵隔',
    aliases: ['纵膈'],
    explanation:
      '纵隔是两肺之间的区域，里面有心脏、大血管、气管、食管和淋巴结。' +
      '报告写“纵隔居中”“纵隔内未见肿大淋巴结”都是正常描述。',
  },
  {
    id: 'chest.costophrenic-angle',
    term: '肋膈角',
    aliases: ['肋膈角锐利', '肋膈角变钝', '肋膈角稍钝'],
    explanation:
      '肋膈角是胸片上肋骨和膈肌相交形成的尖角。“肋膈角锐利”是正常表现；' +
      '“变钝”可能是少量胸腔积液或胸膜增厚，医生会结合其他表现判断。',
  },
  {
    id: 'chest.cardiomegaly',
    term: '心影增大',
    aliases: ['心脏增大', '心影稍大', '心脏扩大'],
    explanation:
      '心影是胸片或 CT 上心脏的轮廓。心影增大可能是心脏本身变大（如高血压、心肌或瓣膜病），' +
      '也可能是心包积液，或只是拍片时吸气不够。需要时医生会建议做心脏超声。',
  },
  {
    id: 'chest.aortic-calcification',
    term: '主动脉硬化',
    aliases: ['主动脉壁钙化', '主动脉粥样硬化', '主动脉钙化', '主动脉弓钙化'],
    explanation:
      '主动脉硬化是主动脉壁上有脂质沉积或钙化，是动脉粥样硬化的表现，中老年人很常见。' +
      '它提示需要关注血压、血脂、血糖和吸烟等心血管危险因素。',
  },
  {
    id: 'chest.coronary-calcification',
    term: '冠状动脉钙化',
    aliases: ['冠脉钙化', '冠状动脉壁钙化'],
    explanation:
      '冠状动脉钙化是给心脏供血的血管壁上有钙化斑块，说明有冠状动脉粥样硬化。' +
      '钙化越多，将来发生冠心病的风险一般越高。建议找心内科医生评估，控制血压、血脂等危险因素。',
  },
  {
    id: 'chest.pericardial-effusion',
    term: '心包积液',
    aliases: ['心包少量积液'],
    explanation:
      '心包积液是包着心脏的那层膜里积了液体。少量积液可能没有症状，也可能与炎症、甲状腺功能减退等有关；' +
      '量多时会影响心脏，需要心内科医生处理。',
  },
  {
    id: 'chest.pneumothorax',
    term: '气胸',
    aliases: ['少量气胸'],
    explanation:
      '气胸是空气进入肺和胸壁之间的空隙，把肺压瘪了一部分，常引起突然胸痛、气短。' +
      '少量气胸可能会自行吸收，量多或症状明显时需要尽快就医处理。',
  },
  {
    id: 'chest.pulmonary-embolism',
    term: '肺栓塞',
    aliases: ['肺动脉栓塞', '肺动脉血栓栓塞'],
    explanation:
      '肺栓塞是血栓（多来自腿部静脉）堵住了肺动脉，可引起胸痛、气短甚至危及生命。' +
      '这是需要紧急处理的情况，请尽快联系医生或到急诊。',
  },
  {
    id: 'chest.bi-rads',
    term: 'BI-RADS',
    aliases: ['BI-RADS分类', 'BI-RADS 分类', 'BIRADS', 'BI-RADS分级'],
    explanation:
      'BI-RADS 是乳腺影像（钼靶、超声、磁共振）的分类方法，从 0 到 6 类。' +
      '1、2 类是正常或良性；3 类基本是良性，恶性可能很低；4、5 类需要进一步检查；0 类表示需要补充检查才能下结论。',
    followUp: BI_RADS_FOLLOW_UP,
  },
  {
    id: 'chest.breast-nodule',
    term: '乳腺结节',
    aliases: ['乳腺低回声结节', '乳房结节'],
    explanation:
      '乳腺结节是乳腺里的一个小团块，是描述而不是诊断。多数是良性的，如纤维腺瘤、囊肿或增生结节。' +
      '医生主要看报告中的 BI-RADS 分类决定是定期复查还是进一步检查。',
  },
  {
    id: 'chest.breast-hyperplasia',
    term: '乳腺增生',
    aliases: ['乳腺小叶增生', '乳腺增生症'],
    explanation:
      '乳腺增生是乳腺组织随激素变化出现的增生，很常见，常与月经周期有关，可伴有胀痛。' +
      '它属于良性改变，一般不需要治疗，按常规定期检查即可。',
  },
  {
    id: 'chest.fibroadenoma',
    term: '纤维腺瘤',
    aliases: ['乳腺纤维腺瘤'],
    explanation:
      '纤维腺瘤是年轻女性最常见的乳腺良性肿瘤，边界清楚、可以推动。' +
      '多数只需要定期复查，长得快或较大时医生可能建议切除。',
  },
  {
    id: 'chest.breast-cyst',
    term: '乳腺囊肿',
    aliases: ['乳腺囊性结节'],
    explanation:
      '乳腺囊肿是乳腺里一个装着液体的小囊，很常见，几乎都是良性的。' +
      '单纯囊肿一般不需要处理；较大或引起疼痛时可以抽液。',
  },
  {
    id: 'chest.dense-breast',
    term: '致密型乳腺',
    aliases: ['腺体致密', '乳腺致密', '不均匀致密型'],
    explanation:
      '致密型乳腺是指乳腺里腺体组织多、脂肪少，在钼靶上显得很白。这在年轻女性中很常见，不是病。' +
      '但致密腺体会遮挡病灶，医生有时会建议加做乳腺超声。',
  },
])
