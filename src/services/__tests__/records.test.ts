import Taro from '@tarojs/taro'
import { useSessionStore } from '@/stores/session-store'
import { downloadAuthorisedImage } from '../records'

// The WADO thumbnails need the bearer token, which an <Image src> cannot send on weapp.
describe('downloadAuthorisedImage', () => {
  let download: jest.SpyInstance
  let toast: jest.SpyInstance
  beforeEach(() => {
    useSessionStore.getState().setToken({ access_token: 'tok-9' })
    download = jest.spyOn(Taro, 'downloadFile')
    toast = jest.spyOn(Taro, 'showToast')
  })
  afterEach(() => {
    download.mockRestore()
    toast.mockRestore()
  })

  it('sends the token and asks for a JPEG; answers the temp file / object URL', async () => {
    download.mockResolvedValue({ statusCode: 200, tempFilePath: 'blob:http://localhost/abc' })
    const revoke = jest.fn()
    Object.assign(URL, { revokeObjectURL: revoke })
    const image = await downloadAuthorisedImage(
      '/dicomweb/studies/1/series/2/instances/3/thumbnail',
    )
    expect(image.src).toBe('blob:http://localhost/abc')
    const call = download.mock.calls[0][0]
    expect(call.url).toBe('/dicomweb/studies/1/series/2/instances/3/thumbnail')
    expect(call.header).toEqual(
      expect.objectContaining({ Authorization: 'Bearer tok-9', Accept: 'image/jpeg' }),
    )
    image.release()
    image.release()
    expect(revoke).toHaveBeenCalledTimes(1)
  })

  it('a refused picture rejects quietly: no toast per thumbnail', async () => {
    download.mockResolvedValue({ statusCode: 415, tempFilePath: 'blob:x' })
    await expect(downloadAuthorisedImage('/dicomweb/x/thumbnail')).rejects.toBeTruthy()
    download.mockRejectedValue({ errMsg: 'downloadFile:fail' })
    await expect(downloadAuthorisedImage('/dicomweb/x/thumbnail')).rejects.toBeTruthy()
    expect(toast).not.toHaveBeenCalled()
  })
})
