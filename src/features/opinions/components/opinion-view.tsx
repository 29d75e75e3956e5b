import { Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import {
  type ImagePin,
  OPINION_PART_LABELS,
  OPINION_PARTS,
  type SignedOpinion,
} from '@contract/main/opinions'
import { ExplainedText } from '@/components/explained-text'
import { timeFormat } from '@/utils/time'
import { OPINION_TEXTS as T } from '../texts'
import './opinion-view.scss'

/** What a preview has before signing; a signed opinion has the rest. */
export type ShownOpinion = Pick<
  SignedOpinion,
  'template' | 'sentences' | 'pins' | 'ai' | 'patientLabel'
> &
  Partial<Pick<SignedOpinion, 'signer' | 'signedAt' | 'verifyCode' | 'contentHash' | 'addenda'>>

function PinMarks({
  pins,
  onOpenPin,
}: {
  pins: ImagePin[]
  onOpenPin?: ((pin: ImagePin) => void) | undefined
}) {
  if (pins.length === 0) return null
  return (
    <View className="opinion-view__pins">
      {pins.map((pin) => (
        <View
          key={pin.id}
          className="opinion-view__pin"
          role="button"
          aria-label={`${T.openPin}：${pin.label}`}
          onClick={() => onOpenPin?.(pin)}
        >
          <Text className="opinion-view__pin-mark">◉</Text>
          <Text className="opinion-view__pin-text">{pin.label}</Text>
        </View>
      ))}
    </View>
  )
}

/**
 * The opinion as the patient reads it (and the expert's 预览): 影像所见, 会诊意见 and 建议, each
 * sentence with the images pinned to it (a tap opens the viewer there), which parts began as an AI
 * draft, the addenda, the signer and the verification code.
 */
export function OpinionView({
  opinion,
  onOpenPin,
  onPdf,
  pdfBusy = false,
}: {
  opinion: ShownOpinion
  onOpenPin?: (pin: ImagePin) => void
  onPdf?: () => void
  pdfBusy?: boolean
}) {
  return (
    <View className="opinion-view">
      <View className="opinion-view__head">
        <Text className="opinion-view__title">{T.title}</Text>
        <Text className="opinion-view__meta">
          {T.template}：{opinion.template.title} · {T.patient}：{opinion.patientLabel}
        </Text>
      </View>
      {OPINION_PARTS.map((part) => {
        const sentences = opinion.sentences.filter((one) => one.part === part)
        if (sentences.length === 0) return null
        return (
          <View key={part} className="opinion-view__part">
            <Text className="opinion-view__part-title">{OPINION_PART_LABELS[part]}</Text>
            {sentences.map((sentence) => (
              <View key={sentence.fieldId} className="opinion-view__sentence">
                <Text className="opinion-view__text">
                  {sentence.label !== OPINION_PART_LABELS[part] && (
                    <Text className="opinion-view__label">{sentence.label}：</Text>
                  )}
                  <ExplainedText text={sentence.text} />
                </Text>
                {sentence.fromAi && <Text className="opinion-view__ai-tag">{T.aiTag}</Text>}
                <PinMarks
                  pins={opinion.pins.filter((pin) => pin.fieldId === sentence.fieldId)}
                  onOpenPin={onOpenPin}
                />
              </View>
            ))}
          </View>
        )
      })}
      {opinion.ai && (
        <Text className="opinion-view__ai-note">
          {T.aiNote(opinion.ai.provider.name, opinion.ai.provider.notice)}
        </Text>
      )}
      {opinion.addenda?.map((addendum, index) => (
        <View key={addendum.signedAt} className="opinion-view__addendum">
          <Text className="opinion-view__part-title">
            {T.addendum(index + 1)}
            <Text className="opinion-view__addendum-time">
              {' '}
              {timeFormat(addendum.signedAt, 'yyyy-mm-dd hh:MM')}
            </Text>
          </Text>
          <Text className="opinion-view__text">
            <ExplainedText text={addendum.text} />
          </Text>
        </View>
      ))}
      {opinion.signer && opinion.signedAt && opinion.verifyCode ? (
        <View className="opinion-view__sign">
          <Text className="opinion-view__sign-line">
            {T.signer}：{opinion.signer.name} {opinion.signer.titleLabel}
          </Text>
          <Text className="opinion-view__sign-line">
            {opinion.signer.hospitalName} {opinion.signer.department}
          </Text>
          <Text className="opinion-view__sign-line">
            {T.signedAt}：{timeFormat(opinion.signedAt, 'yyyy-mm-dd hh:MM')}
          </Text>
          <Text className="opinion-view__sign-line opinion-view__code">
            {T.verifyCode}：{opinion.verifyCode}
          </Text>
          <Text className="opinion-view__hint">{T.verifyHint}</Text>
          {onPdf && (
            <Button
              className="opinion-view__pdf"
              type="primary"
              fill="outline"
              block
              loading={pdfBusy}
              onClick={onPdf}
            >
              {pdfBusy ? T.pdfSaving : T.pdf}
            </Button>
          )}
        </View>
      ) : (
        <Text className="opinion-view__hint opinion-view__unsigned">{T.previewSign}</Text>
      )}
      <Text className="opinion-view__disclaimer">{T.disclaimer}</Text>
      <Text className="opinion-view__source">
        {T.source}：{opinion.template.source}
      </Text>
    </View>
  )
}
