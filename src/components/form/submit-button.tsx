import { Button } from '@nutui/nutui-react-taro'
import './form.scss'

export interface SubmitButtonProps {
  text: string
  busy: boolean
  onClick: () => void
  /** Shown while the form is being sent. Default 提交中… */
  busyText?: string
  /** 'danger' for a destructive action (注销账号). */
  tone?: 'primary' | 'danger'
}

/** The form's one button: shows the submission and cannot be pressed again until it ends. */
export function SubmitButton({
  text,
  busy,
  onClick,
  busyText = '提交中…',
  tone = 'primary',
}: SubmitButtonProps) {
  return (
    <Button
      className={`form-submit${tone === 'danger' ? ' form-submit--danger' : ''}`}
      type="primary"
      block
      loading={busy}
      disabled={busy}
      onClick={onClick}
    >
      {busy ? busyText : text}
    </Button>
  )
}
