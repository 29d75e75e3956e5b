import Taro from '@tarojs/taro'
import { APP_STORAGE_KEY, useAppStore } from '../app-store'
import { useGlobalStore } from '../global-store'
import { POLICY_STORAGE_KEY, migratePolicy, usePolicyStore } from '../policy-store'
import { resetStores } from '../reset-stores'
import {
  SESSION_STORAGE_KEY,
  getAccessToken,
  migrateSession,
  useSessionStore,
} from '../session-store'

function stored(key: string): unknown {
  const raw: unknown = Taro.getStorageSync(key)
  return typeof raw === 'string' && raw !== '' ? JSON.parse(raw) : null
}

beforeEach(() => {
  resetStores()
})

describe('defaults', () => {
  it('starts signed out with the spec’s app state and empty global data', () => {
    expect(useSessionStore.getState().token).toBeNull()
    expect(getAccessToken()).toBeNull()
    expect(usePolicyStore.getState().acceptedVersion).toBeNull()
    expect(useAppStore.getState()).toMatchObject({
      forcedLogin: false,
      hasLogin: false,
      userName: '',
    })
    expect(useGlobalStore.getState()).toMatchObject({ agentMobile: '', inSocialApp: false })
  })
})

describe('persistence over Taro storage', () => {
  it('persists the token object and clears it', () => {
    useSessionStore.getState().setToken({ access_token: 'abc', token_type: 'bearer' })
    expect(getAccessToken()).toBe('abc')
    expect(stored(SESSION_STORAGE_KEY)).toEqual({
      state: { token: { access_token: 'abc', token_type: 'bearer' } },
      version: 1,
    })
    useSessionStore.getState().clearToken()
    expect(stored(SESSION_STORAGE_KEY)).toEqual({ state: { token: null }, version: 1 })
  })

  it('persists the accepted policy version exactly as the server gave it', () => {
    usePolicyStore.getState().acceptVersion('2024-06-01.2')
    expect(stored(POLICY_STORAGE_KEY)).toEqual({
      state: { acceptedVersion: '2024-06-01.2' },
      version: 1,
    })
  })

  it('persists only hasLogin, userName and profile of the app state (allow-list)', () => {
    useAppStore.getState().login('张三')
    expect(useAppStore.getState()).toMatchObject({ hasLogin: true, userName: '张三' })
    expect(stored(APP_STORAGE_KEY)).toEqual({
      state: { hasLogin: true, userName: '张三', profile: null },
      version: 2,
    })
    useAppStore.getState().logout()
    expect(useAppStore.getState()).toMatchObject({ hasLogin: false, userName: '' })
  })

  it('restores persisted state on rehydration (what a relaunch does)', async () => {
    Taro.setStorageSync(
      SESSION_STORAGE_KEY,
      JSON.stringify({ state: { token: { access_token: 'kept' } }, version: 1 }),
    )
    Taro.setStorageSync(
      POLICY_STORAGE_KEY,
      JSON.stringify({ state: { acceptedVersion: '7' }, version: 1 }),
    )
    await useSessionStore.persist.rehydrate()
    await usePolicyStore.persist.rehydrate()
    expect(getAccessToken()).toBe('kept')
    expect(usePolicyStore.getState().acceptedVersion).toBe('7')
  })

  it('migrates a version-0 bare token string into the token object', async () => {
    Taro.setStorageSync(
      SESSION_STORAGE_KEY,
      JSON.stringify({ state: { token: 'legacy' }, version: 0 }),
    )
    await useSessionStore.persist.rehydrate()
    expect(useSessionStore.getState().token).toEqual({ access_token: 'legacy' })
  })

  it('migrates a version-0 policy version kept under `version`', async () => {
    Taro.setStorageSync(POLICY_STORAGE_KEY, JSON.stringify({ state: { version: 3 }, version: 0 }))
    await usePolicyStore.persist.rehydrate()
    expect(usePolicyStore.getState().acceptedVersion).toBe('3')
  })

  it('treats unreadable stored data as signed out instead of crashing', async () => {
    Taro.setStorageSync(SESSION_STORAGE_KEY, '{not json')
    await useSessionStore.persist.rehydrate()
    expect(useSessionStore.getState().token).toBeNull()
    expect(migrateSession(null, 0)).toEqual({ token: null })
    expect(migrateSession({ token: { access_token: '' } }, 0)).toEqual({ token: null })
    expect(migratePolicy('garbage', 0)).toEqual({ acceptedVersion: null })
  })

  it('does not persist global data: it is recomputed on every launch', () => {
    useGlobalStore.getState().setInSocialApp(true)
    useGlobalStore.getState().setAgentMobile('13800000000')
    expect(useGlobalStore.getState()).toMatchObject({
      inSocialApp: true,
      agentMobile: '13800000000',
    })
    expect(localStorage.length).toBe(0)
  })
})

describe('resetStores', () => {
  it('puts every store back to defaults and clears storage', () => {
    useSessionStore.getState().setToken({ access_token: 'x' })
    usePolicyStore.getState().acceptVersion('1')
    useAppStore.getState().login('李四')
    useGlobalStore.getState().setInSocialApp(true)
    resetStores()
    expect(getAccessToken()).toBeNull()
    expect(usePolicyStore.getState().acceptedVersion).toBeNull()
    expect(useAppStore.getState().hasLogin).toBe(false)
    expect(useGlobalStore.getState().inSocialApp).toBe(false)
    expect(stored(SESSION_STORAGE_KEY)).toBeNull()
    expect(stored(POLICY_STORAGE_KEY)).toBeNull()
    // Actions survive a reset.
    useAppStore.getState().login('王五')
    expect(useAppStore.getState().userName).toBe('王五')
  })
})
