import { useCallback, useState } from 'react'

/** Message for a value, or null; `final` once the person submits or leaves the field. */
export type FieldRule = (value: string, final: boolean) => string | null

export interface FieldModel {
  value: string
  error: string | null
  onChange: (value: string) => void
  onBlur: () => void
  /** Checks as on submit; shows and answers whether the value is acceptable. */
  validate: () => boolean
  /** Sets the value without a message (after success, or to clear a secret). */
  reset: (value?: string) => void
}

/** One form field checked as the person types (SPEC section 5 validators via `rule`). */
export function useField(rule: FieldRule, normalise?: (value: string) => string): FieldModel {
  const [value, setValue] = useState('')
  const [error, setError] = useState<string | null>(null)

  const onChange = useCallback(
    (raw: string) => {
      const next = normalise ? normalise(raw) : raw
      setValue(next)
      setError(rule(next, false))
    },
    [rule, normalise],
  )

  const onBlur = useCallback(() => {
    // Leaving an empty field untouched is not an error yet; leaving half a number is.
    setError(value === '' ? null : rule(value, true))
  }, [rule, value])

  const validate = useCallback(() => {
    const message = rule(value, true)
    setError(message)
    return message === null
  }, [rule, value])

  const reset = useCallback((next = '') => {
    setValue(next)
    setError(null)
  }, [])

  return { value, error, onChange, onBlur, validate, reset }
}
