import Taro from '@tarojs/taro'
import { askConsultSubscription } from '../subscribe'

/* The answer says whether the person accepted a template: only then is a consent recorded. */
describe('askConsultSubscription', () => {
  const env = { ...process.env }
  afterEach(() => {
    process.env = { ...env }
    jest.restoreAllMocks()
  })

  function weapp(ids: string) {
    process.env.TARO_ENV = 'weapp'
    process.env.TARO_APP_SUBSCRIBE_CONSULT = ids
  }

  it('answers true when one template is accepted, false when all are refused or it fails', async () => {
    weapp('t1,t2')
    const ask = jest
      .spyOn(Taro, 'requestSubscribeMessage')
      .mockResolvedValueOnce({ t1: 'reject', t2: 'accept', errMsg: 'ok' } as never)
      .mockResolvedValueOnce({ t1: 'reject', t2: 'reject', errMsg: 'ok' } as never)
      .mockRejectedValueOnce(new Error('no'))
    expect(await askConsultSubscription()).toBe(true)
    expect(await askConsultSubscription()).toBe(false)
    expect(await askConsultSubscription()).toBe(false)
    expect(ask).toHaveBeenCalledWith({ tmplIds: ['t1', 't2'], entityIds: [] })
  })

  it('asks nothing on the web or without templates', async () => {
    const ask = jest.spyOn(Taro, 'requestSubscribeMessage')
    process.env.TARO_ENV = 'h5'
    expect(await askConsultSubscription()).toBe(false)
    weapp('')
    expect(await askConsultSubscription()).toBe(false)
    expect(ask).not.toHaveBeenCalled()
  })
})
