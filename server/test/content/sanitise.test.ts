// test-server: no database
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { sanitiseArticleHtml } from '../../src/domain/content/sanitise'

const clean = (html: string) => sanitiseArticleHtml(html).html

test('allowed tags and attributes pass, rebuilt and escaped', () => {
  const out = sanitiseArticleHtml(
    '<h2>肺结节</h2><p>多数<strong>良性</strong>，<em>定期</em>复查。</p><ul><li>CT</li></ul>' +
      '<img src="/media/abc_1" alt="示意图" width="640"><a href="https://www.nhc.gov.cn/x">卫健委</a>',
  )
  assert.equal(
    out.html,
    '<h2>肺结节</h2><p>多数<strong>良性</strong>，<em>定期</em>复查。</p><ul><li>CT</li></ul>' +
      '<img src="/media/abc_1" alt="示意图" width="640"><a href="https://www.nhc.gov.cn/x">卫健委</a>',
  )
  assert.deepEqual(out.removed, [])
  assert.equal(out.plainText, '肺结节\n多数良性，定期复查。\nCT\n卫健委')
})

const VECTORS: [string, string][] = [
  ['<script>alert(1)</script><p>正文</p>', '<p>正文</p>'],
  ['<p onclick="alert(1)" style="color:red" class="x">正文</p>', '<p>正文</p>'],
  ['<img src=x onerror=alert(1)>', ''],
  ['<img src="javascript:alert(1)">', ''],
  ['<img src="http://example.com/a.png">', ''],
  ['<a href="javascript:alert(1)">点我</a>', '<a>点我</a>'],
  ['<a href="jav&#x09;ascript:alert(1)">点我</a>', '<a>点我</a>'],
  ['<a href="&#106;&#97;vascript:alert(1)">点我</a>', '<a>点我</a>'],
  ['<a href=" JaVaScRiPt:alert(1)">点我</a>', '<a>点我</a>'],
  ['<a href="data:text/html;base64,PHNjcmlwdD4=">点我</a>', '<a>点我</a>'],
  ['<a href="//evil.example/x">点我</a>', '<a>点我</a>'],
  ['<svg onload=alert(1)><circle/></svg><p>文</p>', '<p>文</p>'],
  ['<iframe src="https://evil.example"></iframe>', ''],
  ['<style>p{}</style><p>文</p>', '<p>文</p>'],
  ['<p>未闭合<strong>加粗', '<p>未闭合<strong>加粗</strong></p>'],
  ['<!-- <script>alert(1)</script> --><p>文</p>', '<p>文</p>'],
  ['<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>', '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>'],
  ['<div><p>块</p></div>', '<p>块</p>'],
  ['<img src="/media/../etc/passwd">', ''],
  ['<p title="x" >"引号"</p>', '<p>"引号"</p>'],
  ['<a href="https://ok.example/" onmouseover="x">好</a>', '<a href="https://ok.example/">好</a>'],
  [
    '<img src="https://ok.example/a.png" alt="a&quot; onerror=&quot;x">',
    '<img src="https://ok.example/a.png" alt="a&quot; onerror=&quot;x">',
  ],
  ['<noscript><p title="</noscript><img src=x onerror=alert(1)>"></p></noscript>', ''],
  ['<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>', ''],
]

for (const [input, expected] of VECTORS) {
  test(`XSS vector is neutralised: ${input.slice(0, 50)}`, () => {
    const out = clean(input)
    assert.equal(out, expected)
    // Idempotent: the output holds nothing the allow-list would remove (no handler, no script).
    assert.deepEqual(sanitiseArticleHtml(out), {
      ...sanitiseArticleHtml(out),
      html: out,
      removed: [],
    })
  })
}

test('what was removed is reported, so nothing vanishes silently', () => {
  const { removed } = sanitiseArticleHtml(
    '<div style="x"><script>1</script><img src="javascript:1" onerror="x"><a href="/pages/x" id="y">a</a></div>',
  )
  assert.deepEqual(removed.sort(), [
    '<div>',
    '<script>',
    'a[id]',
    'img[onerror]',
    'img[src=javascript:1]',
  ])
})
