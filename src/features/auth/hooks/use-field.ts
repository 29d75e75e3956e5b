import { useCallback, useState } from 'react'
import type { FieldRule } from '../form-rules'

export interface Field {
  value: string
  /** The message to show now, or null (see `useField`). */
  error: string | null
  /** Whether the value passes the rule, shown or not. */
  valid: boolean
  onChange: (value: string) => void
  onBlur: () => void
  /** Shows the message now, typed or not (a button that needs this field was pressed). */
  reveal: () => void
  /** Sets the value without marking the field as typed in (prefill). */
  reset: (value?: string) => void
}

/**
 * One form field checked as the person types: once they have typed, a wrong value shows its message
 * at once, except while it is still unfinished (`138` on its way to 11 digits) and the field has
 * focus. Leaving the field or pressing the form's button (`showAll`) shows every message.
 */
export function useField(rule: FieldRule, showAll: boolean, initial = ''): Field {
  const [value, setValue] = useState(initial)
  const [typed, setTyped] = useState(false)
  const [blurred, setBlurred] = useState(false)
  const [revealed, setRevealed] = useState(false)
  const message = rule.check(value)
  const waiting = !blurred && (rule.unfinished?.(value) ?? false)
  const forced = showAll || revealed
  const visible = forced || (typed && (blurred || !waiting))
  const onChange = useCallback((next: string) => {
    setValue(next)
    setTyped(true)
  }, [])
  const onBlur = useCallback(() => setBlurred(true), [])
  const reveal = useCallback(() => setRevealed(true), [])
  const reset = useCallback((next = '') => {
    setValue(next)
    setTyped(false)
    setBlurred(false)
    setRevealed(false)
  }, [])
  return {
    value,
    // Emptying a focused field is not an error yet; leaving it empty or pressing a button is.
    error: visible && !(value === '' && !forced && !blurred) ? message : null,
    valid: message === null,
    onChange,
    onBlur,
    reveal,
    reset,
  }
}
