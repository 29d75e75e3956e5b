// test-server: no database
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { GLOSSARY_CATEGORIES, KNOWLEDGE_MESSAGES } from '@contract/knowledge/analysis'
import { GLOSSARY } from '../../src/domain/knowledge/glossary'
import * as SOURCES from '../../src/domain/knowledge/glossary/sources'
import { foldUnit } from '../../src/domain/knowledge/matcher'

/* The glossary's shape (glossary/REVIEW.md): what a reviewer relies on without reading every entry. */

const fold = (key: string) =>
  String.fromCharCode(...Array.from(key.trim(), (_, i) => foldUnit(key.trim().charCodeAt(i))))

const SOURCE_NAMES = new Set<string>(
  Object.values(SOURCES as Record<string, unknown>).filter(
    (value): value is string => typeof value === 'string',
  ),
)

test('at least 150 entries, in every category', () => {
  assert.ok(GLOSSARY.length >= 150, `${GLOSSARY.length} entries`)
  for (const category of GLOSSARY_CATEGORIES)
    assert.ok(GLOSSARY.filter((entry) => entry.category === category).length >= 20, category)
})

test('ids are unique and stable-looking: <category>.<kebab-name>', () => {
  const ids = new Set<string>()
  for (const { id, category } of GLOSSARY) {
    assert.match(id, /^[a-z]+\.[a-z0-9]+(-[a-z0-9]+)*$/, id)
    assert.ok(id.startsWith(`${category}.`), `${id} is not in ${category}`)
    assert.ok(!ids.has(id), `duplicate id ${id}`)
    ids.add(id)
  }
})

test('terms and aliases are unique across the glossary, Latin ones in any case', () => {
  const owner = new Map<string, string>()
  for (const { id, term, aliases } of GLOSSARY) {
    const keys = [term, ...aliases]
    assert.equal(new Set(keys.map(fold)).size, keys.length, `${id} repeats a key`)
    for (const key of keys) {
      assert.equal(key, key.trim(), `${id}: "${key}" has spaces around it`)
      assert.ok(key.length >= 2 && key.length <= 20, `${id}: "${key}" length ${key.length}`)
      const other = owner.get(fold(key))
      assert.equal(other, undefined, `"${key}" is both ${other} and ${id}`)
      owner.set(fold(key), id)
    }
  }
})

test('explanations are a few plain sentences, without the caveat or a diagnosis', () => {
  for (const { id, explanation } of GLOSSARY) {
    assert.ok(explanation.length >= 30 && explanation.length <= 200, `${id}: ${explanation.length}`)
    const sentences = explanation.split('。').filter((part) => part.trim() !== '')
    assert.ok(
      sentences.length >= 1 && sentences.length <= 4,
      `${id}: ${sentences.length} sentences`,
    )
    assert.ok(explanation.endsWith('。'), `${id} does not end a sentence`)
    assert.ok(!explanation.includes(KNOWLEDGE_MESSAGES.caveat), `${id} repeats the caveat`)
    assert.doesNotMatch(explanation, /您的|你的|你患有|您患有/, `${id} speaks as a diagnosis`)
  }
})

test('every follow-up names one of the listed guidelines', () => {
  const withFollowUp = GLOSSARY.filter((entry) => entry.followUp)
  assert.ok(withFollowUp.length >= 10, `${withFollowUp.length} follow-ups`)
  for (const { id, followUp } of withFollowUp) {
    assert.ok(SOURCE_NAMES.has(followUp!.source), `${id}: source "${followUp!.source}" not listed`)
    assert.ok(followUp!.text.length >= 20 && followUp!.text.length <= 200, id)
  }
})

test('the nodule follow-ups say what Fleischner 2017 says', () => {
  const byId = new Map(GLOSSARY.map((entry) => [entry.id, entry]))
  const solid = byId.get('chest.solid-nodule')!.followUp!
  assert.equal(solid.source, SOURCES.FLEISCHNER)
  assert.match(solid.text, /小于 6 mm、低风险者一般不需要常规复查/)
  assert.match(solid.text, /6–8 mm 建议 6–12 个月复查 CT/)
  assert.match(solid.text, /大于 8 mm 可考虑 3 个月复查 CT、PET\/CT 或取组织检查/)
  const ggn = byId.get('chest.ground-glass-nodule')!.followUp!
  assert.match(ggn.text, /小于 6 mm 一般不需要常规复查；6 mm 及以上建议 6–12 个月复查 CT/)
  assert.match(ggn.text, /每 2 年复查一次，直到满 5 年/)
  assert.equal(byId.get('chest.lung-rads')!.followUp!.source, SOURCES.LUNG_RADS)
})
