import { articleHtmlForDevice, mediaUrl } from '../media'

describe('articleHtmlForDevice', () => {
  it('styles each tag inline and keeps the text', () => {
    const out = articleHtmlForDevice(
      '<h2>标题</h2><ul><li>一</li></ul><p>正文 <strong>重点</strong></p>',
    )
    expect(out).toBe(
      '<h2 style="font-size:18px;font-weight:700;line-height:1.5;margin:20px 0 8px">标题</h2>' +
        '<ul style="margin:0 0 12px;padding-left:20px"><li style="margin:0 0 6px">一</li></ul>' +
        '<p style="margin:0 0 12px">正文 <strong>重点</strong></p>',
    )
  })

  it('gives our media images the API origin and fits every image to the screen', () => {
    const out = articleHtmlForDevice(
      '<img src="/media/abc" alt="图"><img src="https://x.example/a.png">',
    )
    expect(out).toContain(
      `<img style="max-width:100%;height:auto;display:block;margin:12px 0" src="${mediaUrl('/media/abc')}" alt="图">`,
    )
    expect(out).toContain('src="https://x.example/a.png"')
  })
})
