import Taro from '@tarojs/taro'
import { HttpError, NetworkError, http } from '../http'
import { describeError, fileUrl, uploadAvatar } from '../profile'

describe('profile service', () => {
  it("describeError gives the server's reason, then the network's", () => {
    const refused = new HttpError(
      {
        statusCode: 400,
        header: {},
        data: { code: 400, message: 'Bad', data: null, error: '验证码错误' },
      },
      'business',
    )
    expect(describeError(refused)).toBe('验证码错误')
    const bare = new HttpError({ statusCode: 502, header: {}, data: '' }, 'status')
    expect(describeError(bare)).toBe('请求失败（502）')
    expect(describeError(new NetworkError('fail', false))).toBe('网络异常，请检查网络后重试')
    expect(describeError(new Error('x'), '兜底')).toBe('兜底')
  })

  it('fileUrl leaves absolute addresses and keeps server paths on the API origin', () => {
    expect(fileUrl('https://cdn.example.com/a.png')).toBe('https://cdn.example.com/a.png')
    expect(fileUrl('/uploads/avatars/a.png')).toBe('/uploads/avatars/a.png')
  })

  it('uploadAvatar sends the file as `file` to the main service and checks the answer', async () => {
    const upload = jest.spyOn(http, 'upload').mockResolvedValueOnce({
      code: 200,
      message: 'ok',
      data: { url: '/uploads/a.png' },
      error: null,
    })
    await expect(uploadAvatar('blob:x')).resolves.toEqual({ url: '/uploads/a.png' })
    expect(upload).toHaveBeenCalledWith(
      expect.objectContaining({
        baseUrl: '/main',
        url: '/upload/avatar',
        name: 'file',
        filePath: 'blob:x',
      }),
    )
    jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'showToast:ok' })
    upload.mockResolvedValueOnce({ code: 200, message: 'ok', data: { path: 1 }, error: null })
    await expect(uploadAvatar('blob:y')).rejects.toThrow(/does not match the contract/)
  })
})
