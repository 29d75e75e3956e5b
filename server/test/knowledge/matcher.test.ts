// test-server: no database
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { analyseText } from '../../src/domain/knowledge'
import { buildMatcher } from '../../src/domain/knowledge/matcher'

/* Matching (domain/knowledge/matcher.ts): longest wins, spans in UTF-16 code units, built once. */

/** The matched words of `text`, as `word:id`, in order. */
function words(text: string): string[] {
  return analyseText(text).spans.map(
    ({ start, end, termId }) => `${text.slice(start, end)}:${termId}`,
  )
}

describe('the glossary in report text', () => {
  test('the longest term wins where terms overlap', () => {
    assert.deepEqual(words('磨玻璃结节'), ['磨玻璃结节:chest.ground-glass-nodule'])
    assert.deepEqual(words('部分实性结节'), ['部分实性结节:chest.part-solid-nodule'])
    assert.deepEqual(words('实性结节'), ['实性结节:chest.solid-nodule'])
    assert.deepEqual(words('结节'), ['结节:general.nodule'])
    assert.deepEqual(words('腔隙性脑梗死'), ['腔隙性脑梗死:neuro.lacunar-infarct'])
    assert.deepEqual(words('脑梗死'), ['脑梗死:neuro.cerebral-infarct'])
    assert.deepEqual(words('乳腺增生'), ['乳腺增生:chest.breast-hyperplasia'])
  })

  test('aliases find their term: 毛玻璃结节, 腔梗, GGO in any case, full-width Latin', () => {
    assert.deepEqual(words('毛玻璃结节'), ['毛玻璃结节:chest.ground-glass-nodule'])
    assert.deepEqual(words('多发腔梗'), ['腔梗:neuro.lacunar-infarct'])
    for (const ggo of ['GGO', 'ggo', 'Ggo', 'ＧＧＯ'])
      assert.deepEqual(words(`右肺${ggo}。`), [`${ggo}:chest.ground-glass-nodule`])
    assert.deepEqual(words('见 lung-rads 4A 类'), ['lung-rads:chest.lung-rads'])
  })

  test('a Latin key is a whole word: not inside other letters or digits', () => {
    assert.deepEqual(words('GGOX'), [])
    assert.deepEqual(words('XGGO'), [])
    assert.deepEqual(words('GGO2'), [])
    assert.deepEqual(words('(GGO)'), ['GGO:chest.ground-glass-nodule'])
    assert.deepEqual(words('DWI序列'), ['DWI:general.dwi'])
  })

  test('adjacent terms are both found, and repeated ones every time', () => {
    assert.deepEqual(words('钙化灶结节'), ['钙化灶:general.calcification', '结节:general.nodule'])
    assert.deepEqual(words('结节、结节，结节'), [
      '结节:general.nodule',
      '结节:general.nodule',
      '结节:general.nodule',
    ])
    const { spans, terms } = analyseText('结节结节')
    assert.deepEqual(spans, [
      { start: 0, end: 2, termId: 'general.nodule' },
      { start: 2, end: 4, termId: 'general.nodule' },
    ])
    assert.deepEqual(Object.keys(terms), ['general.nodule'])
  })

  test('a negated finding is still explained (未见钙化灶)', () => {
    assert.deepEqual(words('未见钙化灶'), ['钙化灶:general.calcification'])
  })

  test('a real report: every span in order, none overlapping, the words as written', () => {
    const text =
      '右肺上叶后段见一部分实性结节，大小约 8 mm，边界清楚，可见分叶及毛刺，另见多发磨玻璃影。' +
      '纵隔内未见肿大淋巴结。双侧胸腔未见积液。L4/5 椎间盘突出，继发椎管狭窄。'
    assert.deepEqual(words(text), [
      '部分实性结节:chest.part-solid-nodule',
      '边界清楚:general.well-defined',
      '分叶:chest.lobulation',
      '毛刺:chest.spiculation',
      '磨玻璃影:chest.ground-glass-opacity',
      '纵隔:chest.mediastinum',
      '肿大淋巴结:general.enlarged-lymph-node',
      '积液:general.effusion',
      '椎间盘突出:spine.disc-herniation',
      '椎管狭窄:spine.canal-stenosis',
    ])
  })

  test('everyday words around a term are not taken for it', () => {
    // 心影大小 is the heart's size, 肝脾大小 the liver's and spleen's: not 心影增大 or 脾肿大.
    assert.deepEqual(words('心影大小、形态正常。肝脾大小正常。'), [])
    assert.deepEqual(words('脾肿大，心影增大。'), [
      '脾肿大:abdomen.splenomegaly',
      '心影增大:chest.cardiomegaly',
    ])
    // 结节病 and 结节性甲状腺肿 are diseases of their own, not a 结节.
    assert.deepEqual(words('结节病；结节性甲状腺肿'), [
      '结节病:chest.sarcoidosis',
      '结节性甲状腺肿:neuro.nodular-goitre',
    ])
  })

  test('empty text and text without terms give nothing', () => {
    assert.deepEqual(analyseText(''), { spans: [], terms: {} })
    assert.deepEqual(analyseText('今天天气很好。'), { spans: [], terms: {} })
  })

  test('spans count UTF-16 code units, so emoji before a term shift it by two', () => {
    const text = '😀结节👍🏽磨玻璃结节😀'
    const { spans } = analyseText(text)
    assert.deepEqual(spans, [
      { start: 2, end: 4, termId: 'general.nodule' },
      { start: 8, end: 13, termId: 'chest.ground-glass-nodule' },
    ])
    for (const { start, end } of spans) {
      for (const at of [start, end]) {
        const before = text.charCodeAt(at - 1)
        assert.ok(!(before >= 0xd800 && before <= 0xdbff), `span edge ${at} splits a pair`)
      }
    }
  })

  test('a 2,000-character report: each span is its term, sorted, without overlap', () => {
    const sentence = '两肺多发结节，右肺上叶部分实性结节，未见钙化灶。腔梗。GGO。L5/S1 椎间盘膨出。'
    const text = sentence.repeat(Math.ceil(2000 / sentence.length)).slice(0, 2000)
    const { spans, terms } = analyseText(text)
    assert.ok(spans.length > 100)
    let last = 0
    for (const span of spans) {
      assert.ok(span.start >= last && span.end > span.start)
      last = span.end
      assert.ok(terms[span.termId])
    }
    const first = spans.slice(0, 6).map(({ start, end }) => text.slice(start, end))
    assert.deepEqual(first, ['两肺多发结节', '部分实性结节', '钙化灶', '腔梗', 'GGO', '椎间盘膨出'])
  })

  test('the answer carries each found term once, with its explanation and follow-up', () => {
    const { terms } = analyseText('磨玻璃结节与结节')
    assert.deepEqual(Object.keys(terms).sort(), ['chest.ground-glass-nodule', 'general.nodule'])
    const ggn = terms['chest.ground-glass-nodule']!
    assert.equal(ggn.term, '磨玻璃结节')
    assert.equal(ggn.categoryLabel, '胸部与乳腺')
    assert.match(ggn.followUp!.source, /Fleischner/)
    assert.equal(terms['general.nodule']!.followUp, null)
  })
})

describe('the automaton on its own', () => {
  test('longest first even when a shorter term starts earlier', () => {
    const m = buildMatcher([
      { id: 'ab', keys: ['甲乙'] },
      { id: 'bcde', keys: ['乙丙丁戊'] },
    ])
    assert.deepEqual(m.match('甲乙丙丁戊'), [{ start: 1, end: 5, id: 'bcde' }])
    assert.deepEqual(m.match('甲乙己乙丙丁戊'), [
      { start: 0, end: 2, id: 'ab' },
      { start: 3, end: 7, id: 'bcde' },
    ])
  })

  test('of two equally long overlapping terms, the earlier wins', () => {
    const m = buildMatcher([
      { id: 'x', keys: ['甲乙'] },
      { id: 'y', keys: ['乙丙'] },
    ])
    assert.deepEqual(m.match('甲乙丙'), [{ start: 0, end: 2, id: 'x' }])
  })

  test('failure links find a term after a partial match of a longer one', () => {
    const m = buildMatcher([
      { id: 'long', keys: ['磨玻璃结节'] },
      { id: 'short', keys: ['玻璃'] },
      { id: 'node', keys: ['结节'] },
    ])
    assert.deepEqual(m.match('磨玻璃影结节'), [
      { start: 1, end: 3, id: 'short' },
      { start: 4, end: 6, id: 'node' },
    ])
  })

  test('a key two ids claim, an empty key or a lone surrogate is refused when built', () => {
    assert.throws(() =>
      buildMatcher([
        { id: 'a', keys: ['结节'] },
        { id: 'b', keys: ['结节'] },
      ]),
    )
    assert.throws(() =>
      buildMatcher([
        { id: 'a', keys: ['GGO'] },
        { id: 'b', keys: ['ggo'] },
      ]),
    )
    assert.throws(() => buildMatcher([{ id: 'a', keys: [' '] }]))
    assert.throws(() => buildMatcher([{ id: 'a', keys: ['\ud83d结节'] }]))
    assert.equal(buildMatcher([{ id: 'a', keys: ['结节', '结节'] }]).size, 1)
  })

  test('a key holding an emoji matches it whole', () => {
    const m = buildMatcher([{ id: 'smile', keys: ['😀结节'] }])
    assert.deepEqual(m.match('a😀结节'), [{ start: 1, end: 5, id: 'smile' }])
  })
})
