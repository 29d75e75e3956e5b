import { create } from 'zustand'

/**
 * The old app's globalData. Deliberately not persisted: `inSocialApp` describes the browser the app
 * is open in right now (the same phone may open it in WeChat today and in Safari tomorrow), and
 * `agentMobile` comes with the link that opened the app, so both are set afresh on every launch.
 */
export interface GlobalState {
  agentMobile: string
  inSocialApp: boolean
  setAgentMobile: (agentMobile: string) => void
  setInSocialApp: (inSocialApp: boolean) => void
}

export const useGlobalStore = create<GlobalState>()((set) => ({
  agentMobile: '',
  inSocialApp: false,
  setAgentMobile: (agentMobile) => set({ agentMobile }),
  setInSocialApp: (inSocialApp) => set({ inSocialApp }),
}))
