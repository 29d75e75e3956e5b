import { useState } from 'react'
import { z } from 'zod/mini'
import {
  HOSPITAL_REQUEST_MESSAGES,
  type HospitalRequestInput,
  HospitalRequestInputSchema,
} from '@contract/main/hospital-requests'
import { describeError } from '@/services/api'
import { createHospitalRequest, type HospitalRequest } from '@/services/experts'
import { isCancelled } from '@/services/http'
import type { Region } from './use-select-hospital'

/*
 * 找不到我的医院？: the request to add a hospital, checked by the contract's own schema and words
 * (contract/main/hospital-requests.ts) before it is sent, as the server checks it.
 */

export interface HospitalRequestValues {
  name: string
  province: string
  city: string
  address: string
}
export type HospitalRequestField = keyof HospitalRequestValues

export const EMPTY_REQUEST: HospitalRequestValues = {
  name: '',
  province: '',
  city: '',
  address: '',
}

/** The request as sent: trimmed, an empty address left out. */
export function requestInputOf(values: HospitalRequestValues): HospitalRequestInput {
  const address = values.address.trim()
  return {
    name: values.name.trim(),
    province: values.province.trim(),
    city: values.city.trim(),
    ...(address ? { address } : {}),
  }
}

/** Each field's first message, in the contract's words. */
export function requestProblems(
  values: HospitalRequestValues,
): Partial<Record<HospitalRequestField, string>> {
  const parsed = z.safeParse(HospitalRequestInputSchema, requestInputOf(values))
  const problems: Partial<Record<HospitalRequestField, string>> = {}
  if (parsed.success) return problems
  for (const issue of parsed.error.issues) {
    const key = issue.path[0] as HospitalRequestField | undefined
    if (key && problems[key] === undefined) problems[key] = issue.message
  }
  return problems
}

/** The place to start from: the region chosen in the cascade (a municipality is its own city). */
export function requestValuesFrom(region: Region | null, name = ''): HospitalRequestValues {
  return {
    ...EMPTY_REQUEST,
    name,
    province: region?.province ?? '',
    city: region?.city ?? '',
  }
}

export interface HospitalRequestForm {
  values: HospitalRequestValues
  set: (name: HospitalRequestField, value: string) => void
  blur: (name: HospitalRequestField) => void
  problems: Partial<Record<HospitalRequestField, string>>
  sending: boolean
  /** The server's refusal, in its words. */
  error: string | null
  submit: () => Promise<void>
}

export interface HospitalRequestOptions {
  initial: HospitalRequestValues
  /** The request (new, or the one already waiting under that name) goes back to the form. */
  onRequested: (request: HospitalRequest) => void
  /** The name is in the directory already: the person picks it there instead. */
  onListed: (name: string) => void
}

export function useHospitalRequest({
  initial,
  onRequested,
  onListed,
}: HospitalRequestOptions): HospitalRequestForm {
  const [values, setValues] = useState(initial)
  const [touched, setTouched] = useState<ReadonlySet<HospitalRequestField>>(new Set())
  const [tried, setTried] = useState(false)
  const [sending, setSending] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const all = requestProblems(values)
  const problems: Partial<Record<HospitalRequestField, string>> = {}
  for (const [key, message] of Object.entries(all) as [HospitalRequestField, string][]) {
    if (tried || touched.has(key)) problems[key] = message
  }

  const submit = async () => {
    if (sending) return
    setTried(true)
    setError(null)
    if (Object.keys(requestProblems(values)).length > 0) return
    const input = requestInputOf(values)
    setSending(true)
    try {
      onRequested(await createHospitalRequest(input))
    } catch (caught) {
      if (isCancelled(caught)) return
      const message = describeError(caught, '提交失败，请稍后重试')
      setError(message)
      if (message === HOSPITAL_REQUEST_MESSAGES.alreadyListed(input.name)) onListed(input.name)
    } finally {
      setSending(false)
    }
  }

  return {
    values,
    set: (name, value) => {
      setValues((current) => ({ ...current, [name]: value }))
      setError(null)
    },
    blur: (name) => setTouched((current) => new Set(current).add(name)),
    problems,
    sending,
    error,
    submit,
  }
}
