import { segmentText } from '../segments'

/* The server's spans cut the text; any that does not fit is dropped, and the text stays whole. */

describe('segmentText', () => {
  const join = (text: string, spans: Parameters<typeof segmentText>[1]) =>
    segmentText(text, spans).map((s) => (s.termId ? `[${s.text}]` : s.text))

  it('cuts at the spans, in order', () => {
    expect(
      join('甲结节乙钙化灶', [
        { start: 4, end: 7, termId: 'b' },
        { start: 1, end: 3, termId: 'a' },
      ]),
    ).toEqual(['甲', '[结节]', '乙', '[钙化灶]'])
  })

  it('drops spans out of range, overlapping or empty, and keeps every character', () => {
    const text = '结节与钙化灶'
    const parts = segmentText(text, [
      { start: 0, end: 2, termId: 'a' },
      { start: 1, end: 3, termId: 'x' },
      { start: 3, end: 3, termId: 'x' },
      { start: 5, end: 99, termId: 'x' },
      { start: 3, end: 6, termId: 'b' },
    ])
    expect(parts.map((p) => p.text).join('')).toBe(text)
    expect(parts.filter((p) => p.termId).map((p) => p.termId)).toEqual(['a', 'b'])
  })

  it('drops a span whose term the answer lacks', () => {
    const parts = segmentText('结节', [{ start: 0, end: 2, termId: 'gone' }], () => false)
    expect(parts).toEqual([{ text: '结节', start: 0 }])
  })

  it('keeps emoji whole', () => {
    const text = '😀结节😀'
    expect(join(text, [{ start: 2, end: 4, termId: 'a' }])).toEqual(['😀', '[结节]', '😀'])
  })
})
