import Taro from '@tarojs/taro'
import { useSessionStore } from '@/stores/session-store'
import { resetStores } from '@/stores/reset-stores'
import { resetDrafts, seedDraft, signIn } from '../../__tests__/fixtures'
import { CONSULT_DRAFT_STORAGE_KEY, useConsultDraftStore } from '../draft-store'

beforeEach(() => {
  resetStores()
  resetDrafts()
  signIn()
})

it('signing out forgets every application draft (health details) on this phone', async () => {
  seedDraft('text')
  seedDraft('imaging')
  expect(Object.keys(useConsultDraftStore.getState().drafts)).toHaveLength(2)
  expect(Taro.getStorageSync(CONSULT_DRAFT_STORAGE_KEY)).toContain('体检发现肺结节')

  useSessionStore.getState().clearToken()

  expect(useConsultDraftStore.getState().drafts).toEqual({})
  expect(String(Taro.getStorageSync(CONSULT_DRAFT_STORAGE_KEY) ?? '')).not.toContain(
    '体检发现肺结节',
  )
})

it('a refreshed token keeps the draft', () => {
  seedDraft('text')
  useSessionStore.getState().setToken({ access_token: 'tok2' })
  expect(Object.keys(useConsultDraftStore.getState().drafts)).toHaveLength(1)
})
