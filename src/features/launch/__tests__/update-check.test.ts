import Taro from '@tarojs/taro'
import { getDeployedH5Build } from '@/services/app-build'
import { isNewBuild, UPDATE_TEXTS } from '../update-policy'

jest.mock('@/services/app-build', () => ({ getDeployedH5Build: jest.fn() }))

describe('update check', () => {
  it('prompts only for a real new build', () => {
    expect(isNewBuild('aaa', 'bbb')).toBe(true)
    expect(isNewBuild('aaa', 'aaa')).toBe(false)
    expect(isNewBuild('aaa', null)).toBe(false)
    expect(isNewBuild(undefined, 'bbb')).toBe(false)
  })

  it('the mini-program restarts into a downloaded update when the person agrees', async () => {
    let ready: () => void = () => undefined
    const manager = {
      onUpdateReady: jest.fn((listener: () => void) => (ready = listener)),
      onUpdateFailed: jest.fn(),
      applyUpdate: jest.fn(),
    }
    ;(Taro as unknown as { getUpdateManager: unknown }).getUpdateManager = () => manager
    const modal = jest.spyOn(Taro, 'showModal').mockResolvedValue({ confirm: true } as never)
    const { startUpdateCheck } =
      jest.requireActual<typeof import('../update-check')>('../update-check')
    startUpdateCheck()
    ready()
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(modal).toHaveBeenCalledWith(
      expect.objectContaining({ content: UPDATE_TEXTS.readyWeapp, confirmText: '重启' }),
    )
    expect(manager.applyUpdate).toHaveBeenCalled()
  })

  it('H5 offers 刷新 once per new deploy, and asks nothing when the build is current', async () => {
    jest.useFakeTimers({ now: new Date('2026-11-27T08:00:00Z') })
    process.env.TARO_APP_H5_BUILD = 'build-1'
    const deployed = jest.mocked(getDeployedH5Build).mockResolvedValue('build-1')
    const modal = jest.spyOn(Taro, 'showModal').mockResolvedValue({ confirm: false } as never)
    // Required after the build id is set: the module reads it once, as the built page does.
    jest.requireActual<typeof import('../update-check.h5')>('../update-check.h5').startUpdateCheck()
    await jest.advanceTimersByTimeAsync(3000)
    expect(deployed).toHaveBeenCalledTimes(1)
    expect(modal).not.toHaveBeenCalled()

    // A new deploy: the next check (tab shown again, 10 minutes on) offers 刷新; declined, it is not
    // offered again for the same build.
    deployed.mockResolvedValue('build-2')
    for (let i = 0; i < 2; i += 1) {
      await jest.advanceTimersByTimeAsync(10 * 60 * 1000)
      document.dispatchEvent(new Event('visibilitychange'))
      await jest.advanceTimersByTimeAsync(0)
    }
    expect(deployed).toHaveBeenCalledTimes(3)
    expect(modal).toHaveBeenCalledTimes(1)
    expect(modal).toHaveBeenCalledWith(
      expect.objectContaining({ content: UPDATE_TEXTS.readyH5, confirmText: '刷新' }),
    )
    jest.useRealTimers()
    delete process.env.TARO_APP_H5_BUILD
  })
})
