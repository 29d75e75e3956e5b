import { fireEvent, screen, waitFor } from '@testing-library/react'

function taroInput(placeholder: string): HTMLElement {
  const found = screen
    .getAllByPlaceholderText(placeholder)
    .find((element) =>
      ['taro-input-core', 'taro-textarea-core'].includes(element.tagName.toLowerCase()),
    )
  if (!found) throw new Error(`no input with placeholder ${placeholder}`)
  return found
}

/**
 * Types into the NutUI input with this placeholder. The event is Taro's own (`detail.value`), sent
 * to Taro's input element: its inner native <input> is drawn asynchronously, and setting the value
 * before that makes Taro's component log errors.
 */
export function typeInto(placeholder: string, value: string): void {
  fireEvent(taroInput(placeholder), new CustomEvent('input', { bubbles: true, detail: { value } }))
}

/** The value the input with this placeholder shows. */
export function valueOf(placeholder: string): string | null {
  return taroInput(placeholder).getAttribute('value')
}

/**
 * Waits until every Taro input has drawn its native <input>. Needed before switching to fake
 * timers: Taro's component would otherwise never finish drawing and log an error on each value.
 */
export async function inputsDrawn(): Promise<void> {
  await waitFor(() => {
    const cores = document.querySelectorAll('taro-input-core').length
    if (document.querySelectorAll('taro-input-core input').length < cores)
      throw new Error('drawing')
  })
}
