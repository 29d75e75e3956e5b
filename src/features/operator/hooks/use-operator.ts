import { useState } from 'react'
import { usePagedList } from '@/components/refresh-list'
import { useResource, type Resource } from '@/hooks/use-resource'
import { pickOneFile } from '@/platform/file-picker'
import { showToast } from '@/platform/ui'
import { describeError } from '@/services/api'
import {
  type HospitalKey,
  operatorApi,
  type OperatorFeature,
  type OperatorFileKind,
  type OperatorHospital,
  uploadOperatorFile,
} from '@/services/operator'
import { isConflict } from '@/services/operator-experts'
import { refreshProfile, type UserProfile } from '@/services/profile'

/*
 * The operators' pages' state. The server decides who is an operator: a 403 is shown in its own
 * words (仅运营人员可以使用此功能), never hidden behind an empty page.
 */

/** Runs a change, says 已保存 (or the server's reason), and reloads what it changed. */
export async function act<T>(
  change: () => Promise<T>,
  done: string,
  after?: () => Promise<void>,
  afterFailure?: (error: unknown) => Promise<void>,
): Promise<T | null> {
  try {
    const answer = await change()
    showToast(done)
    await after?.()
    return answer
  } catch (error) {
    showToast(describeError(error))
    await afterFailure?.(error)
    return null
  }
}

/**
 * One change to a row of a list at a time (`busyId` meanwhile), through act; the list reloads after
 * it, and also after a 409: another operator changed the row first, so show the list as it is now.
 */
export function useRowAction(reload: () => Promise<void>) {
  const [busyId, setBusyId] = useState<string | null>(null)
  const run = async (id: string, change: () => Promise<unknown>, done: string) => {
    setBusyId(id)
    try {
      const answer = await act(
        async () => (await change()) ?? true,
        done,
        reload,
        (error) => (isConflict(error) ? reload() : Promise.resolve()),
      )
      return answer !== null
    } finally {
      setBusyId(null)
    }
  }
  return { busyId, run }
}

export function useArticles() {
  return usePagedList(async (page, pageSize) => operatorApi.articles(page, pageSize), {
    pageSize: 20,
  })
}

export function useVideos() {
  return usePagedList(async (page, pageSize) => operatorApi.videos(page, pageSize), {
    pageSize: 20,
  })
}

export function useFeedbackList() {
  return usePagedList(async (page, pageSize) => operatorApi.feedback(page, pageSize), {
    pageSize: 20,
  })
}

export function useActions() {
  return usePagedList(async (page, pageSize) => operatorApi.actions(page, pageSize), {
    pageSize: 30,
  })
}

/** What the server answers anyone else (403); the page says it before asking, in the same words. */
export const OPERATORS_ONLY = '仅运营人员可以使用此功能'

/**
 * The person's own profile, asked before any operator call: someone who is not an operator is told
 * so without a refused request (and the browser's console error it brings). The server still
 * refuses every operator call to anyone else.
 */
export function useOwnProfile(): Resource<UserProfile> {
  return useResource('own-profile', () => refreshProfile({ loading: false }))
}

export function useFeatures(): Resource<OperatorFeature[]> {
  return useResource('features', () => operatorApi.features())
}

export function useHospitals(): Resource<OperatorHospital[]> {
  return useResource('hospitals', () => operatorApi.hospitals())
}

export function useHospitalKeys(hospitalId: string) {
  const keys = useResource<HospitalKey[]>(hospitalId, () => operatorApi.hospitalKeys(hospitalId))
  /** The whole key, shown once right after it is issued; gone when the page closes. */
  const [issued, setIssued] = useState<string | null>(null)
  const issue = async () => {
    const answer = await act(() => operatorApi.issueKey(hospitalId), '已签发', keys.reload)
    if (answer) setIssued(answer.key)
  }
  const revoke = (keyId: string) =>
    act(() => operatorApi.revokeKey(hospitalId, keyId), '已吊销', keys.reload)
  return { keys, issued, issue, revoke }
}

export interface Upload {
  id: string | null
  name: string
  durationSeconds: number | null
  busy: boolean
  pick: () => Promise<void>
  clear: () => void
}

const ACCEPT: Record<OperatorFileKind, string> = {
  cover: 'image/jpeg,image/png',
  poster: 'image/jpeg,image/png',
  video: 'video/mp4',
}

/** One file an article or a video will name: picked, uploaded, its id kept. */
export function useUpload(kind: OperatorFileKind): Upload {
  const [id, setId] = useState<string | null>(null)
  const [name, setName] = useState('')
  const [durationSeconds, setDuration] = useState<number | null>(null)
  const [busy, setBusy] = useState(false)
  const pick = async () => {
    const file = await pickOneFile(ACCEPT[kind], `operator-${kind}-input`)
    if (!file) return
    setBusy(true)
    try {
      const uploaded = await uploadOperatorFile(kind, file.filePath)
      setId(uploaded.id)
      setName(file.name)
      setDuration(uploaded.durationSeconds)
    } catch (error) {
      showToast(describeError(error))
    } finally {
      file.release()
      setBusy(false)
    }
  }
  const clear = () => {
    setId(null)
    setName('')
    setDuration(null)
  }
  return { id, name, durationSeconds, busy, pick, clear }
}
