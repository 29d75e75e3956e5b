import { canPickFolder, picksFromChat } from '@/platform/file-picker'
import { uploadSourceOptions } from '../upload-source-sheet'

jest.mock('@/platform/file-picker', () => ({
  canPickFolder: jest.fn(),
  picksFromChat: jest.fn(),
}))

const names = () => uploadSourceOptions().map((option) => [option.name, option.source])

describe('what 上传DICOM offers', () => {
  it('weapp: a zip or DICOM files from a chat, no folder', () => {
    jest.mocked(picksFromChat).mockReturnValue(true)
    jest.mocked(canPickFolder).mockReturnValue(false)
    expect(names()).toEqual([
      ['从聊天选择压缩包', 'zip'],
      ['从聊天选择DICOM文件', 'files'],
    ])
  })

  it('a browser: a zip, several files, and a folder only where the browser can pick one', () => {
    jest.mocked(picksFromChat).mockReturnValue(false)
    jest.mocked(canPickFolder).mockReturnValue(true)
    expect(names()).toEqual([
      ['上传压缩包', 'zip'],
      ['选择DICOM文件', 'files'],
      ['选择文件夹', 'folder'],
    ])
    jest.mocked(canPickFolder).mockReturnValue(false)
    expect(names()).toEqual([
      ['上传压缩包', 'zip'],
      ['选择DICOM文件', 'files'],
    ])
  })
})
