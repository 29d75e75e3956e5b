/** What the viewer cannot show; `message` is Chinese and fit to put on screen as it is. */
export class ViewerError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ViewerError'
  }
}

export const UNSUPPORTED_IMAGE = '暂不支持该图像格式的预览'
export const NO_IMAGE = '未找到影像'
export const BROKEN_DATA = '影像数据不完整，无法显示'
