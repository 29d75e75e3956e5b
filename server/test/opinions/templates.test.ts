import assert from 'node:assert/strict'
import { test } from 'node:test'
import { OPINION_FIELD_MAX } from '@contract/main/opinions'
import { ApiError } from '../../src/http/errors'
import {
  BUILT_IN_TEMPLATES,
  checkValues,
  sentencesOf,
  templateById,
} from '../../src/domain/opinions'
import { answerTexts, asVariant, defaultValues } from '../../src/domain/opinions/templates'

function refusal(run: () => void): string {
  try {
    run()
  } catch (error) {
    assert.ok(error instanceof ApiError, String(error))
    assert.equal(error.statusCode, 400)
    return error.userMessage
  }
  assert.fail('expected a refusal')
}

test('the catalogue: the studies the issue names, each a valid template with stable, unique field ids', () => {
  const titles = BUILT_IN_TEMPLATES.map((one) => one.id)
  for (const id of [
    'chest-ct',
    'lung-nodule-followup',
    'head-ct',
    'brain-mr',
    'abdomen-ct',
    'spine-mr',
    'knee-mr',
    'chest-xray',
  ])
    assert.ok(titles.includes(id), id)
  assert.equal(new Set(titles).size, titles.length)
  for (const template of BUILT_IN_TEMPLATES) {
    const ids = template.sections.flatMap((section) => section.fields.map((field) => field.id))
    assert.equal(new Set(ids).size, ids.length, `${template.id}: duplicate field id`)
    assert.match(template.source, /RadReport/)
    // Every template ends with a required 会诊意见 and 建议 and has something to find.
    assert.ok(
      template.sections.some((one) => one.part === 'findings'),
      template.id,
    )
    for (const part of ['impression', 'advice'] as const) {
      const fields = template.sections
        .filter((one) => one.part === part)
        .flatMap((one) => one.fields)
      assert.ok(
        fields.some((field) => field.required),
        `${template.id}: ${part}`,
      )
    }
    for (const field of template.sections.flatMap((one) => one.fields)) {
      if (field.type === 'choice' || field.type === 'multi') {
        assert.ok((field.options?.length ?? 0) >= 2, `${template.id}.${field.id}: options`)
        const defaults = field.defaultValue === undefined ? [] : [field.defaultValue].flat()
        for (const value of defaults) assert.ok(field.options!.includes(value), `${field.id}`)
      }
      if (field.type === 'number') assert.ok(field.unit, `${field.id}: unit`)
    }
    // A new opinion's defaults are a valid draft of it.
    checkValues(template, defaultValues(template), 'draft')
  }
  // The demo AI writes into chest-ct's `lungs`.
  assert.ok(
    templateById('chest-ct').sections.some((one) => one.fields.some((f) => f.id === 'lungs')),
  )
})

test('checkValues: types, pick-lists, lengths and unsafe text refused with the field named; signing asks for the required ones', () => {
  const chest = templateById('chest-ct')
  const base = defaultValues(chest)
  assert.match(
    refusal(() => templateById('no-such')),
    /模板不存在/,
  )
  assert.match(
    refusal(() => checkValues(chest, { ...base, nope: 'x' }, 'draft')),
    /模板没有的项目/,
  )
  assert.equal(
    refusal(() => checkValues(chest, { ...base, airways: '随便写' }, 'draft')),
    '「气道」请从选项中选择',
  )
  assert.equal(
    refusal(() => checkValues(chest, { ...base, airways: ['气管及各级支气管通畅'] }, 'draft')),
    '「气道」请从选项中选择',
  )
  assert.equal(
    refusal(() => checkValues(chest, { ...base, pleura: ['气胸', '气胸'] }, 'draft')),
    '「胸膜与胸腔」请从选项中选择',
  )
  assert.equal(
    refusal(() =>
      checkValues(chest, { ...base, lungs: 'x'.repeat(OPINION_FIELD_MAX + 1) }, 'draft'),
    ),
    `「肺实质」最多 ${OPINION_FIELD_MAX} 字`,
  )
  assert.match(
    refusal(() => checkValues(chest, { ...base, lungs: '右肺\u202e结节' }, 'draft')),
    /无法显示的字符/,
  )
  // A draft may be incomplete; a signature may not.
  checkValues(chest, base, 'draft')
  assert.equal(
    refusal(() => checkValues(chest, base, 'sign')),
    '请填写「会诊意见」',
  )
  checkValues(chest, { ...base, impression: '良性可能大', advice: '12 个月后复查' }, 'sign')

  const nodule = templateById('lung-nodule-followup')
  const filled = {
    ...defaultValues(nodule),
    comparison: '2025-06 外院 CT',
    'nodule-location': '右肺上叶尖段',
    'nodule-type': '实性结节',
    'nodule-size': '约 6',
    'nodule-change': '大小稳定',
    impression: '良性可能大',
    advice: '12 个月复查',
  }
  checkValues(nodule, filled, 'draft')
  assert.equal(
    refusal(() => checkValues(nodule, filled, 'sign')),
    '「平均直径」请输入数字',
  )
  checkValues(nodule, { ...filled, 'nodule-size': '6.5' }, 'sign')
})

test('sentences and answer texts: the template order, empty fields left out, units and lists written out, AI marked', () => {
  const nodule = templateById('lung-nodule-followup')
  const values = {
    comparison: '无',
    'nodule-location': '右肺上叶尖段',
    'nodule-type': '磨玻璃结节',
    'nodule-size': '6.5',
    'nodule-features': ['边缘光整', '空泡征'],
    'nodule-change': '首次发现',
    impression: '良性可能大',
    advice: '6–12 个月复查胸部 CT',
  }
  const sentences = sentencesOf(nodule, values, new Set(['nodule-size']))
  assert.deepEqual(
    sentences.map((one) => [one.fieldId, one.text, one.fromAi]),
    [
      ['comparison', '无', false],
      ['nodule-location', '右肺上叶尖段', false],
      ['nodule-type', '磨玻璃结节', false],
      ['nodule-size', '6.5 mm', true],
      ['nodule-features', '边缘光整、空泡征', false],
      ['nodule-change', '首次发现', false],
      ['impression', '良性可能大', false],
      ['advice', '6–12 个月复查胸部 CT', false],
    ],
  )
  const texts = answerTexts(sentences)
  assert.match(texts.findings, /^对比的既往检查：无\n位置：右肺上叶尖段/)
  assert.equal(texts.opinion, '良性可能大')
  assert.equal(texts.advice, '6–12 个月复查胸部 CT')

  // A variant keeps the template's fields and takes the expert's defaults.
  const chest = templateById('chest-ct')
  const variant = asVariant(chest, {
    id: 'v1',
    name: '我的胸部 CT',
    values: { lungs: '双肺清晰。' },
  })
  assert.deepEqual(variant.variant, { id: 'v1', name: '我的胸部 CT' })
  assert.equal(defaultValues(variant).lungs, '双肺清晰。')
  assert.equal(defaultValues(variant).nodules, undefined)
})
