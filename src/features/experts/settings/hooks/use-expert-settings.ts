import { useCallback, useState } from 'react'
import { rule, type Rule } from '@/components/form/rules'
import { type OptionalResource, useResource } from '@/hooks/use-resource'
import { showToast } from '@/platform/ui'
import { describeError } from '@/services/api'
import {
  type ConsultService,
  DAILY_LIMIT_MAX,
  DAILY_LIMIT_MIN,
  EXPERT_MESSAGES,
  EXPERT_PROFILE_MESSAGES,
  EXPERT_SERVICE_RULES,
  getMyExpertSettings,
  type MyExpertSettings,
  type ServicesInput,
  SPECIALITIES_MAX,
  updateMyExpertProfile,
  updateMyExpertServices,
} from '@/services/expert-profiles'
import { useAppStore } from '@/stores/app-store'
import { yuanToFen } from '@/utils/money'

export const PRICE_FORMAT_MESSAGE = '请输入价格（元），最多两位小数，如 30 或 30.50'

/** A price typed in yuan: an amount with at most two decimals, within the platform's bounds. */
export function priceRules(kind: ConsultService): Rule[] {
  const { minFen, maxFen } = EXPERT_SERVICE_RULES[kind]
  return [
    rule((value) => yuanToFen(value) !== null, PRICE_FORMAT_MESSAGE),
    rule((value) => {
      const fen = yuanToFen(value)
      return fen !== null && fen >= minFen && fen <= maxFen
    }, EXPERT_PROFILE_MESSAGES.priceRange(kind)),
  ]
}

export const DAILY_LIMIT_RULES: Rule[] = [
  rule((value) => {
    if (!/^\d{1,3}$/.test(value.trim())) return false
    const limit = Number(value)
    return limit >= DAILY_LIMIT_MIN && limit <= DAILY_LIMIT_MAX
  }, EXPERT_PROFILE_MESSAGES.dailyLimit),
]

export const FOLLOWUP_LIMIT_RULES: Rule[] = [
  rule(
    (value) => /^\d{1,2}$/.test(value.trim()) && Number(value) <= 10,
    EXPERT_PROFILE_MESSAGES.followupLimit,
  ),
]

/** 擅长方向 as the contract wants them: at least one, at most SPECIALITIES_MAX. */
export function specialitiesProblem(picked: readonly string[]): string | null {
  if (picked.length === 0) return EXPERT_MESSAGES.specialitiesRequired
  if (picked.length > SPECIALITIES_MAX) return EXPERT_MESSAGES.specialitiesMany
  return null
}

export type SettingsAccess = 'expert' | 'not-expert'

export interface ExpertSettingsModel {
  /** Decided from the signed-in person's role before anything is asked. */
  access: SettingsAccess
  state: OptionalResource<MyExpertSettings>
  /** 接诊中 / 暂停接诊 is being saved. */
  switching: boolean
  setAccepting: (accepting: boolean) => Promise<void>
  saveServices: (input: ServicesInput) => Promise<void>
  saveProfile: (introduction: string, specialities: string[]) => Promise<void>
}

/** What the server has now, as the services call takes it (for a change of one thing). */
export function servicesInputOf(settings: MyExpertSettings): ServicesInput {
  return {
    accepting: settings.profile.accepting,
    dailyLimit: settings.dailyLimit,
    followupLimit: settings.followupLimit,
    services: settings.profile.services.map((service) => ({
      kind: service.kind,
      enabled: service.enabled,
      priceFen: service.priceFen,
    })),
  }
}

/**
 * 服务设置: the expert's own settings. Someone who is not an expert is told so from their own
 * profile, without asking an expert-only call for a 403. 接诊中 / 暂停接诊 saves at once (with what
 * the server already has); prices and the daily limit save with their button; the introduction and
 * 擅长方向 with theirs (in effect at once, no review). Saving failures throw to the form, which
 * shows the server's words.
 */
export function useExpertSettings(): ExpertSettingsModel {
  const role = useAppStore((state) => state.profile?.role)
  const access: SettingsAccess = role === 'expert' ? 'expert' : 'not-expert'
  const state = useResource(access === 'expert' ? 'me' : null, () => getMyExpertSettings(), {
    errorMessage: '服务设置加载失败，请稍后重试',
  })
  const { replace } = state
  const [switching, setSwitching] = useState(false)
  const current = state.status === 'ready' ? state.data : null

  const setAccepting = useCallback(
    async (accepting: boolean) => {
      if (!current || switching) return
      setSwitching(true)
      try {
        replace(await updateMyExpertServices({ ...servicesInputOf(current), accepting }))
        showToast(accepting ? '已恢复接诊' : '已暂停接诊，新的咨询将暂不接受')
      } catch (error) {
        showToast(describeError(error))
      } finally {
        setSwitching(false)
      }
    },
    [current, switching, replace],
  )

  const saveServices = useCallback(
    async (input: ServicesInput) => {
      replace(await updateMyExpertServices(input))
      showToast('服务设置已保存', { icon: 'success' })
    },
    [replace],
  )

  const saveProfile = useCallback(
    async (introduction: string, specialities: string[]) => {
      replace(await updateMyExpertProfile({ introduction, specialities }))
      showToast('简介和擅长方向已更新', { icon: 'success' })
    },
    [replace],
  )

  return { access, state, switching, setAccepting, saveServices, saveProfile }
}
