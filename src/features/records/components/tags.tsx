import { Text } from '@tarojs/components'
import { modalityName } from '../filters'
import './tags.scss'

export type TagTone = 'primary' | 'grey' | 'warn' | 'danger' | 'ai'

/** A small label on a card: modality, report status, 未读, 隐私, AI报告. */
export function Tag({ tone = 'grey', children }: { tone?: TagTone; children: string }) {
  return <Text className={`records-tag records-tag--${tone}`}>{children}</Text>
}

/** The modalities of an exam as tags (SR and other non-image series are left out when others exist). */
export function ModalityTags({ modalities }: { modalities: readonly string[] }) {
  const images = modalities.filter((code) => !['SR', 'PR', 'KO'].includes(code.toUpperCase()))
  const shown = images.length > 0 ? images : modalities
  return (
    <>
      {shown.map((code) => (
        <Tag key={code} tone="primary">
          {modalityName(code)}
        </Tag>
      ))}
    </>
  )
}

/** Report statuses that mean "changed after it was final" or "withdrawn" stand out. */
export function reportTone(status: string): TagTone {
  if (status === 'cancelled' || status === 'entered-in-error') return 'danger'
  if (status === 'amended' || status === 'corrected' || status === 'appended') return 'warn'
  if (status === 'final') return 'primary'
  return 'grey'
}
