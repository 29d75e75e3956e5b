import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { describeError } from '@/services/api'
import { errorReason, isCancelled } from '@/services/http'
import { firstFailure, type Rule } from './rules'

export interface FieldSpec {
  rules: readonly Rule[]
  initial?: string
  /** Applied to every typed value (upper-casing an ID number's x). */
  normalise?: (value: string) => string
}

/** What a `FormField` needs of one field. */
export interface FieldProps {
  value: string
  /** The message to show now, or null (see `useForm`). */
  error: string | null
  onChange: (value: string) => void
  onBlur: () => void
}

interface FieldState {
  value: string
  /** Typed into since the last reset. */
  dirty: boolean
  /** Left (blurred) since the last reset. */
  touched: boolean
  /** Its message is shown whatever was typed: submit was pressed, or a button needs it. */
  revealed: boolean
}

export interface Form<K extends string> {
  values: Record<K, string>
  touched: Record<K, boolean>
  /** The messages shown now: null for a valid field and for one the person has not got to yet. */
  errors: Record<K, string | null>
  field: (name: K) => FieldProps
  /** Whether the value passes its rules, shown or not. */
  valid: (name: K) => boolean
  /** Shows the messages of `names` (default: every field) and answers whether all pass. */
  validate: (names?: readonly K[]) => boolean
  reveal: (name: K) => void
  /** Forgets what was shown (switching the login mode). */
  hideErrors: () => void
  /** Sets a value without counting it as typed (prefill, clearing a secret after success). */
  setValue: (name: K, value: string) => void
  /**
   * Runs `task` unless one is running (a ref as well as state: two taps in one frame must not send
   * twice). A failure keeps everything typed and shows the server's words in `submitError`.
   */
  run: (task: () => Promise<void>) => void
  /** `validate(names)`, then `run(task)`. */
  submit: (task: () => Promise<void>, names?: readonly K[]) => void
  submitting: boolean
  submitError: string | null
  /**
   * The server's reason code for the failure shown in `submitError` (contract/reasons.ts), or null.
   * A page that offers a way out of one refusal (合并账号, 申诉) decides by this, never by the text.
   */
  submitReason: string | null
  /** Shows a message of the page's own (or clears it); it carries no reason. */
  setSubmitError: (message: string | null) => void
}

function mapFields<K extends string, T>(names: readonly K[], fn: (name: K) => T): Record<K, T> {
  const out = {} as Record<K, T>
  for (const name of names) out[name] = fn(name)
  return out
}

/**
 * The state of one form: values, touched, the messages to show, and the submission.
 *
 * Checked as the person types, without scolding: once a field is typed into, a wrong value shows
 * its message at once, except while the value is still unfinished and the field has focus, and
 * except an emptied field that still has focus. Leaving the field (blur) or pressing the button
 * (`validate`/`submit`) shows every message. `spec` may change between renders (rules that depend on
 * the page's state); its keys may not.
 */
export function useForm<K extends string>(
  spec: Record<K, FieldSpec>,
  options: { fallback?: string } = {},
): Form<K> {
  const names = Object.keys(spec) as K[]
  const specRef = useRef(spec)
  specRef.current = spec
  const [state, setState] = useState<Record<K, FieldState>>(() =>
    mapFields(names, (name) => ({
      value: spec[name].initial ?? '',
      dirty: false,
      touched: false,
      revealed: false,
    })),
  )
  const [submitting, setSubmitting] = useState(false)
  const [submitFailure, setSubmitFailure] = useState<{ message: string; reason: string | null }>()
  const busy = useRef(false)
  const alive = useRef(true)
  const fallback = options.fallback

  useEffect(() => {
    alive.current = true
    return () => {
      alive.current = false
    }
  }, [])

  const values = mapFields(names, (name) => state[name].value)
  const failures = mapFields(names, (name) => firstFailure(spec[name].rules, values[name], values))
  const errors = mapFields(names, (name) => {
    const failure = failures[name]
    if (failure === null) return null
    const { value, dirty, touched, revealed } = state[name]
    const waiting = !touched && (failure.unfinished?.(value, values) ?? false)
    const visible = revealed || (dirty && (touched || !waiting))
    // Emptying a focused field is not an error yet; leaving it empty or pressing a button is.
    if (!visible || (value === '' && !revealed && !touched)) return null
    return failure.message
  })

  const patch = useCallback((name: K, change: Partial<FieldState>) => {
    setState((current) => ({ ...current, [name]: { ...current[name], ...change } }))
  }, [])

  const onChange = useMemo(
    () =>
      mapFields(names, (name) => (raw: string) => {
        const normalise = specRef.current[name].normalise
        patch(name, { value: normalise ? normalise(raw) : raw, dirty: true })
      }),
    // The names never change (see above).
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [patch],
  )
  const onBlur = useMemo(
    () => mapFields(names, (name) => () => patch(name, { touched: true })),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [patch],
  )

  // Plain functions: `failures` is recomputed every render, so these would be too.
  const validate = (only?: readonly K[]) => {
    const checked = only ?? names
    setState((current) => {
      const next = { ...current }
      for (const name of checked) next[name] = { ...current[name], revealed: true }
      return next
    })
    return checked.every((name) => failures[name] === null)
  }

  const run = useCallback(
    (task: () => Promise<void>) => {
      if (busy.current) return
      busy.current = true
      setSubmitting(true)
      setSubmitFailure(undefined)
      task().then(
        () => {
          busy.current = false
          if (alive.current) setSubmitting(false)
        },
        (failure: unknown) => {
          busy.current = false
          if (!alive.current) return
          setSubmitting(false)
          if (isCancelled(failure)) return
          setSubmitFailure({
            message: describeError(failure, fallback),
            reason: errorReason(failure),
          })
        },
      )
    },
    [fallback],
  )

  const setSubmitError = useCallback(
    (message: string | null) =>
      setSubmitFailure(message === null ? undefined : { message, reason: null }),
    [],
  )

  return {
    values,
    touched: mapFields(names, (name) => state[name].touched),
    errors,
    field: (name) => ({
      value: state[name].value,
      error: errors[name],
      onChange: onChange[name],
      onBlur: onBlur[name],
    }),
    valid: (name) => failures[name] === null,
    validate,
    reveal: (name) => patch(name, { revealed: true }),
    hideErrors: () =>
      setState((current) => mapFields(names, (name) => ({ ...current[name], revealed: false }))),
    setValue: (name, value) =>
      patch(name, { value, dirty: false, touched: false, revealed: false }),
    run,
    submit: (task, only) => {
      if (busy.current) return
      if (validate(only)) run(task)
    },
    submitting,
    submitError: submitFailure?.message ?? null,
    submitReason: submitFailure?.reason ?? null,
    setSubmitError,
  }
}
