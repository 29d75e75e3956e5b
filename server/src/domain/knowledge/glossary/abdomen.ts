import { inCategory } from './types'
import {
  BOSNIAK_FOLLOW_UP,
  ESE_ADRENAL_FOLLOW_UP,
  GALLBLADDER_POLYP_FOLLOW_UP,
  SVS_AAA_FOLLOW_UP,
} from './sources'

/** 腹部与盆腔: liver, gallbladder, pancreas, spleen, kidneys, adrenals, bowel, pelvic organs. */
export const ABDOMEN = inCategory('abdomen', [
  {
    id: 'abdomen.fatty-liver',
    term: '脂肪肝',
    aliases: ['肝脂肪浸润', '脂肪性肝病', '肝脏脂肪浸润', '轻度脂肪肝', '中度脂肪肝', '重度脂肪肝'],
    explanation:
      '脂肪肝是肝细胞里堆积了过多脂肪，常与肥胖、饮酒、高血脂、糖尿病有关，非常常见。' +
      '多数通过减重、少喝酒、多运动可以改善；建议查肝功能、血脂和血糖，由医生判断是否需要治疗。',
  },
  {
    id: 'abdomen.liver-cyst',
    term: '肝囊肿',
    aliases: ['肝脏囊肿', '肝内囊肿', '肝多发囊肿', '单纯性肝囊肿'],
    explanation:
      '肝囊肿是肝里一个装着清亮液体的囊，多数是天生的，非常常见，几乎都是良性的。' +
      '单纯的小囊肿一般不需要治疗，也不会变成癌；很大并引起症状时才考虑处理。',
  },
  {
    id: 'abdomen.liver-hemangioma',
    term: '肝血管瘤',
    aliases: ['肝海绵状血管瘤', '肝脏血管瘤'],
    explanation:
      '肝血管瘤是肝里最常见的良性肿瘤，其实是一团异常的血管，不会变成癌。' +
      '小的、典型的血管瘤通常不需要治疗；较大或不典型时医生可能建议做增强检查或定期复查。',
  },
  {
    id: 'abdomen.cirrhosis',
    term: '肝硬化',
    aliases: ['肝硬化改变'],
    explanation:
      '肝硬化是肝脏长期受损（如乙肝、丙肝、饮酒、脂肪肝）后纤维化，变硬、变形，功能下降。' +
      '需要消化科或肝病科医生治疗病因、定期复查，并筛查肝癌和食管静脉曲张等并发症。',
  },
  {
    id: 'abdomen.liver-calcification',
    term: '肝内钙化灶',
    aliases: ['肝内钙化', '肝内钙化斑'],
    explanation:
      '肝内钙化灶是肝里的小钙点，多是以前感染、寄生虫或小的胆管结石留下的痕迹，通常是良性的，不需要治疗。',
  },
  {
    id: 'abdomen.intrahepatic-stone',
    term: '肝内胆管结石',
    aliases: ['肝内胆管结石伴扩张'],
    explanation:
      '肝内胆管结石是肝里的胆管中长了结石，可能引起胆管扩张或反复感染。' +
      '没有症状的小结石可以观察，有腹痛、发热、黄疸时要及时就医，请肝胆外科医生评估。',
  },
  {
    id: 'abdomen.gallstone',
    term: '胆囊结石',
    aliases: ['胆结石', '胆囊多发结石', '胆囊泥沙样结石'],
    explanation:
      '胆囊结石是胆囊里形成的“石头”，很常见，很多人没有症状。' +
      '没有症状时多数可以观察；反复右上腹痛、发作过胆囊炎或胰腺炎时，外科医生可能建议切除胆囊。',
  },
  {
    id: 'abdomen.gallbladder-polyp',
    term: '胆囊息肉',
    aliases: ['胆囊息肉样病变', '胆囊隆起样病变', '胆囊多发息肉'],
    explanation:
      '胆囊息肉是胆囊内壁上长出的小突起，大多数是胆固醇沉积形成的，属于良性。' +
      '医生主要看大小和是否增长来决定复查或手术。',
    followUp: GALLBLADDER_POLYP_FOLLOW_UP,
  },
  {
    id: 'abdomen.cholecystitis',
    term: '胆囊炎',
    aliases: ['慢性胆囊炎', '急性胆囊炎'],
    explanation:
      '胆囊炎是胆囊发炎，常与胆囊结石有关。急性胆囊炎会右上腹剧痛、发热，需要及时就医；' +
      '慢性胆囊炎常是影像上胆囊壁毛糙、增厚，有症状时请消化科或肝胆外科评估。',
  },
  {
    id: 'abdomen.bile-duct-dilation',
    term: '胆管扩张',
    aliases: ['胆总管扩张', '肝内胆管扩张', '胆管增宽'],
    explanation:
      '胆管扩张是运送胆汁的管道变粗，可能是下游有结石、狭窄或其他原因堵住了，也可能是胆囊切除后的正常变化。' +
      '医生通常会结合肝功能、症状进一步检查原因。',
  },
  {
    id: 'abdomen.pancreatic-cyst',
    term: '胰腺囊性病变',
    aliases: ['胰腺囊肿', '胰腺囊性灶', '胰腺囊性占位'],
    explanation:
      '胰腺囊性病变是胰腺里装着液体的病灶，种类很多，多数是良性或低风险的，少数有恶变可能。' +
      '医生会根据大小和特征决定复查间隔，必要时做磁共振或超声内镜检查。',
  },
  {
    id: 'abdomen.splenomegaly',
    term: '脾肿大',
    aliases: ['脾脏增大', '脾稍大', '脾脏稍大', '脾脏肿大'],
    explanation:
      '脾肿大是脾脏比正常大，可见于感染、肝硬化、血液病等，也有人天生偏大。' +
      '轻度脾大需要结合血常规、肝功能等查原因。',
  },
  {
    id: 'abdomen.accessory-spleen',
    term: '副脾',
    aliases: ['副脾结节'],
    explanation: '副脾是脾脏旁边一小块额外的正常脾组织，是天生的，很常见，不需要治疗。',
  },
  {
    id: 'abdomen.kidney-cyst',
    term: '肾囊肿',
    aliases: ['肾脏囊肿', '单纯性肾囊肿', '肾多发囊肿', '双肾囊肿', '肾盂旁囊肿'],
    explanation:
      '肾囊肿是肾里装着液体的囊，随年龄增加越来越常见，单纯囊肿几乎都是良性的。' +
      '单纯小囊肿一般不需要治疗；结构复杂的囊肿医生会用 Bosniak 分级评估。',
  },
  {
    id: 'abdomen.bosniak',
    term: 'Bosniak分级',
    aliases: ['Bosniak 分级', 'Bosniak分类', 'Bosniak 分类'],
    explanation:
      'Bosniak 分级是评估肾囊肿（尤其是复杂囊肿）的方法，分 I、II、IIF、III、IV 级。' +
      '级别越高，需要警惕的程度越高。',
    followUp: BOSNIAK_FOLLOW_UP,
  },
  {
    id: 'abdomen.kidney-stone',
    term: '肾结石',
    aliases: ['肾脏结石', '肾多发结石', '肾小结石', '肾盏结石'],
    explanation:
      '肾结石是肾里形成的“石头”，很常见。小的、没有症状的结石可以多喝水、定期复查；' +
      '引起绞痛、积水或感染时，需要泌尿外科处理。',
  },
  {
    id: 'abdomen.ureteral-stone',
    term: '输尿管结石',
    aliases: ['输尿管上段结石', '输尿管下段结石'],
    explanation:
      '输尿管结石是从肾里掉下来、卡在输尿管里的结石，常引起剧烈腰腹痛、血尿。' +
      '小结石常能自行排出，大的或引起积水、发热时需要泌尿外科处理。',
  },
  {
    id: 'abdomen.hydronephrosis',
    term: '肾积水',
    aliases: ['肾盂积水', '肾盂扩张', '肾盂肾盏扩张'],
    explanation:
      '肾积水是尿液排出不畅，积在肾里，使肾盂、肾盏变大，常见原因是结石或狭窄。' +
      '需要找到并解除梗阻的原因，明显的积水请尽快看泌尿外科。',
  },
  {
    id: 'abdomen.angiomyolipoma',
    term: '肾错构瘤',
    aliases: ['血管平滑肌脂肪瘤', '肾血管平滑肌脂肪瘤'],
    explanation:
      '肾错构瘤（血管平滑肌脂肪瘤）是肾里最常见的良性肿瘤，由血管、平滑肌和脂肪组成。' +
      '小的通常只需定期复查超声；较大时有出血的风险，医生可能建议处理。',
  },
  {
    id: 'abdomen.adrenal-nodule',
    term: '肾上腺结节',
    aliases: ['肾上腺意外瘤', '肾上腺腺瘤', '肾上腺占位'],
    explanation:
      '肾上腺结节是肾脏上方小腺体里的结节，做 CT 时常偶然发现，绝大多数是良性腺瘤。' +
      '医生会看它的大小和 CT 值，并查激素，确认它是否良性、有没有分泌过多的激素。',
    followUp: ESE_ADRENAL_FOLLOW_UP,
  },
  {
    id: 'abdomen.adrenal-hyperplasia',
    term: '肾上腺增生',
    aliases: ['肾上腺增粗', '肾上腺结节样增生'],
    explanation:
      '肾上腺增生是肾上腺变粗、变厚，有时与激素分泌过多（如醛固酮增多引起的高血压）有关，也可能没有意义。' +
      '医生通常会结合血压和激素检查判断。',
  },
  {
    id: 'abdomen.aaa',
    term: '腹主动脉瘤',
    aliases: ['腹主动脉瘤样扩张'],
    explanation:
      '腹主动脉瘤是腹部最大的动脉局部扩张超过正常的 1.5 倍（一般直径达到 3 cm 以上）。' +
      '多数没有症状，但变大后有破裂风险，需要按大小定期复查，并请血管外科医生评估。',
    followUp: SVS_AAA_FOLLOW_UP,
  },
  {
    id: 'abdomen.prostatic-hyperplasia',
    term: '前列腺增生',
    aliases: ['前列腺肥大', '前列腺增大', '良性前列腺增生'],
    explanation:
      '前列腺增生是中老年男性前列腺变大，可能引起尿频、夜尿多、排尿费力。' +
      '没有症状时不需要治疗，症状明显时请泌尿外科医生指导用药。',
  },
  {
    id: 'abdomen.prostate-calcification',
    term: '前列腺钙化',
    aliases: ['前列腺钙化灶', '前列腺钙化斑', '前列腺结石'],
    explanation:
      '前列腺钙化是前列腺里的小钙点，中老年男性很常见，多与以前的炎症有关，一般不需要治疗。',
  },
  {
    id: 'abdomen.uterine-fibroid',
    term: '子宫肌瘤',
    aliases: ['子宫平滑肌瘤', '子宫多发肌瘤', '肌壁间肌瘤', '浆膜下肌瘤', '黏膜下肌瘤'],
    explanation:
      '子宫肌瘤是子宫肌层长出的良性肿瘤，育龄女性中非常常见，极少恶变。' +
      '没有症状的小肌瘤通常只需定期复查；月经量多、贫血或肌瘤长得快时请妇科医生评估。',
  },
  {
    id: 'abdomen.adenomyosis',
    term: '子宫腺肌症',
    aliases: ['子宫腺肌病', '子宫腺肌瘤'],
    explanation:
      '子宫腺肌症是子宫内膜长进了子宫肌层里，子宫常变大，可能引起痛经加重、月经量多。' +
      '它是良性疾病，治疗方式取决于症状和生育计划，请妇科医生评估。',
  },
  {
    id: 'abdomen.nabothian-cyst',
    term: '纳氏囊肿',
    aliases: ['宫颈纳氏囊肿', '宫颈腺囊肿', '纳博特囊肿'],
    explanation:
      '纳氏囊肿是宫颈腺体开口被堵、分泌物潴留形成的小囊，成年女性很常见，属于良性改变，一般不需要治疗。',
  },
  {
    id: 'abdomen.ovarian-cyst',
    term: '卵巢囊肿',
    aliases: ['附件囊肿', '附件区囊肿', '卵巢囊性占位', '附件区囊性包块'],
    explanation:
      '卵巢囊肿是卵巢上装着液体的囊。育龄女性中很多是随月经周期出现、会自行消失的生理性囊肿；' +
      '持续存在、较大或形态复杂的，需要妇科医生评估。',
  },
  {
    id: 'abdomen.pelvic-fluid',
    term: '盆腔积液',
    aliases: ['盆腔少量积液', '子宫直肠陷凹积液'],
    explanation:
      '盆腔积液是盆腔最低处有少量液体。女性在排卵期或月经前后常见少量积液，多是生理性的；' +
      '量较多或伴有腹痛、发热时需要医生查原因。',
  },
  {
    id: 'abdomen.ascites',
    term: '腹水',
    aliases: ['腹腔积液', '腹腔少量积液'],
    explanation:
      '腹水是腹腔里积了液体，原因可能是肝硬化、心功能不全、肾病、感染或肿瘤等。' +
      '需要医生根据积液多少和其他检查找原因。',
  },
  {
    id: 'abdomen.bowel-obstruction',
    term: '肠梗阻',
    aliases: ['不全性肠梗阻', '不完全性肠梗阻', '肠梗阻征象'],
    explanation:
      '肠梗阻是肠内容物通过受阻，常有腹痛、腹胀、呕吐、不排气排便。这需要及时就医，由外科或消化科医生处理。',
  },
  {
    id: 'abdomen.appendicitis',
    term: '阑尾炎',
    aliases: ['急性阑尾炎'],
    explanation: '阑尾炎是阑尾发炎，典型表现是右下腹痛，可伴发热。急性阑尾炎需要尽快到外科就诊。',
  },
  {
    id: 'abdomen.diverticulum',
    term: '憩室',
    aliases: ['结肠憩室', '肠憩室', '十二指肠憩室', '膀胱憩室'],
    explanation:
      '憩室是消化道或膀胱壁向外鼓出的小袋，很常见，多数没有症状，不需要治疗。' +
      '少数会发炎（憩室炎）或出血，有腹痛、便血时请就医。',
  },
  {
    id: 'abdomen.kidney-crystal',
    term: '肾结晶',
    aliases: ['肾内小结晶'],
    explanation:
      '肾结晶是超声上肾里很小的强回声点，可能是尿盐沉积或很小的结石，通常没有症状。' +
      '建议多喝水，定期复查超声即可。',
  },
])
