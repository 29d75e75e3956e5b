import { useState } from 'react'
import { Text, View } from '@tarojs/components'
import { ActionSheet, Button, Collapse, Input, Popup } from '@nutui/nutui-react-taro'
import {
  type ImagePin,
  opinionSentences,
  type ReportTemplate,
  type TemplateField,
} from '@contract/main/opinions'
import { ReauthSheet } from '@/components/reauth-sheet'
import { showModal } from '@/platform/ui'
import type { OpinionEditor, SaveState } from '../hooks/use-opinion-editor'
import { OPINION_TEXTS as T } from '../texts'
import { FieldInput } from './field-input'
import { OpinionView } from './opinion-view'
import './opinion-editor.scss'

const SAVE_TEXT: Record<SaveState, string> = {
  idle: '',
  saving: T.saving,
  saved: T.saved,
  failed: T.unsaved,
}

function TemplatePicker({
  templates,
  current,
  onPick,
}: {
  templates: ReportTemplate[]
  current: ReportTemplate | null
  onPick: (template: ReportTemplate) => void
}) {
  const groups = [
    { title: T.builtIn, items: templates.filter((one) => !one.variant) },
    { title: T.mine, items: templates.filter((one) => one.variant) },
  ]
  return (
    <View className="opinion-editor__templates" aria-label={T.chooseTemplate}>
      {groups.map(
        (group) =>
          group.items.length > 0 && (
            <View key={group.title} className="opinion-editor__template-group">
              <Text className="opinion-editor__group-title">{group.title}</Text>
              <View className="opinion-editor__template-grid">
                {group.items.map((template) => {
                  const key = template.variant?.id ?? template.id
                  const on =
                    current !== null &&
                    current.id === template.id &&
                    current.variant?.id === template.variant?.id
                  return (
                    <View
                      key={key}
                      className={`opinion-editor__template${on ? ' opinion-editor__template--on' : ''}`}
                      role="button"
                      onClick={() => onPick(template)}
                    >
                      <Text className="opinion-editor__template-name">
                        {template.variant?.name ?? template.title}
                      </Text>
                      <Text className="opinion-editor__template-meta">
                        {template.variant ? template.title : template.modality}
                      </Text>
                    </View>
                  )
                })}
              </View>
            </View>
          ),
      )}
    </View>
  )
}

function FieldBlock({
  editor,
  field,
  pinnable,
  onPin,
  onOpenPin,
}: {
  editor: OpinionEditor
  field: TemplateField
  /** A finding written in words or a number: an image can stand behind it. */
  pinnable: boolean
  onPin: (fieldId: string) => void
  onOpenPin: (pin: ImagePin) => void
}) {
  const draft = editor.draft!
  const pins = draft.pins.filter((pin) => pin.fieldId === field.id)
  const fromAi = field.id in draft.aiFields
  return (
    <View className="opinion-field">
      <View className="opinion-field__head">
        <Text className="opinion-field__label">
          {field.label}
          {field.required && <Text className="opinion-field__required"> *</Text>}
        </Text>
        {fromAi && <Text className="opinion-field__ai">{T.aiTag}</Text>}
        {pinnable && (
          <View
            className="opinion-field__pin-button"
            role="button"
            aria-label={`${T.pin}：${field.label}`}
            onClick={() => onPin(field.id)}
          >
            <Text>＋{T.pin}</Text>
          </View>
        )}
      </View>
      <FieldInput
        field={field}
        value={draft.values[field.id]}
        onChange={(value) => editor.setValue(field.id, value)}
      />
      {pins.length > 0 && (
        <View className="opinion-field__pins">
          {pins.map((pin) => (
            <View key={pin.id} className="opinion-field__pin">
              <View
                className="opinion-field__pin-text"
                role="button"
                onClick={() => onOpenPin(pin)}
              >
                <Text>◉ {pin.label}</Text>
              </View>
              <View
                className="opinion-field__pin-remove"
                role="button"
                aria-label={T.pinRemove}
                onClick={() => editor.removePin(pin.id)}
              >
                <Text>✕</Text>
              </View>
            </View>
          ))}
        </View>
      )}
    </View>
  )
}

/**
 * 撰写会诊报告: pick a template, fill its sections (they fold), pin images to sentences, take an AI
 * draft in (marked until signed), preview what the patient will read, keep it as one's own
 * template, and sign.
 */
export function OpinionEditorView({
  editor,
  onPin,
  onOpenPin,
}: {
  editor: OpinionEditor
  /** Opens the viewer to pin an image to this field (the page picks the exam). */
  onPin: (fieldId: string) => void
  onOpenPin: (pin: ImagePin) => void
}) {
  const { space, draft, templates } = editor
  const [picking, setPicking] = useState(false)
  const [preview, setPreview] = useState(false)
  const [naming, setNaming] = useState(false)
  const [name, setName] = useState('')
  if (!space) return null

  const pick = async (template: ReportTemplate) => {
    if (
      draft &&
      (draft.template.id !== template.id || draft.template.variant?.id !== template.variant?.id)
    ) {
      const sure = await showModal({ title: T.switchConfirmTitle, content: T.switchConfirm })
      if (!sure) return
    }
    setPicking(false)
    editor.chooseTemplate(template)
  }
  const ai = editor.aiDrafts[0]

  return (
    <View className="opinion-editor">
      <View className="opinion-editor__case">
        <Text className="opinion-editor__case-who">{space.patientLabel}</Text>
        <Text className="opinion-editor__case-text">{space.chiefComplaint}</Text>
      </View>
      {ai && draft && (
        <View className="opinion-editor__ai" role="note">
          <Text className="opinion-editor__ai-text">
            {T.aiBanner(`${ai.provider.name}（${ai.provider.notice}）`)}
          </Text>
          <Button
            size="small"
            type="primary"
            fill="outline"
            onClick={() => editor.applyAiDraft(ai)}
          >
            {T.aiApply}
          </Button>
        </View>
      )}
      {!draft || picking ? (
        <View className="opinion-editor__card">
          <Text className="opinion-editor__card-title">{T.chooseTemplate}</Text>
          <TemplatePicker templates={templates} current={draft?.template ?? null} onPick={pick} />
        </View>
      ) : (
        <>
          <View className="opinion-editor__bar">
            <View className="opinion-editor__bar-main">
              <Text className="opinion-editor__bar-title">
                {draft.template.variant?.name ?? draft.template.title}
              </Text>
              <Text className="opinion-editor__save" aria-live="polite">
                {SAVE_TEXT[editor.save]}
              </Text>
            </View>
            <View className="opinion-editor__change" role="button" onClick={() => setPicking(true)}>
              <Text>{T.changeTemplate}</Text>
            </View>
          </View>
          <Collapse
            className="opinion-editor__sections"
            defaultActiveName={draft.template.sections.map((section) => section.id)}
          >
            {draft.template.sections.map((section) => (
              <Collapse.Item key={section.id} name={section.id} title={section.title}>
                {section.fields.map((field) => (
                  <FieldBlock
                    key={field.id}
                    editor={editor}
                    field={field}
                    pinnable={
                      section.part === 'findings' &&
                      (field.type === 'text' || field.type === 'number')
                    }
                    onPin={onPin}
                    onOpenPin={onOpenPin}
                  />
                ))}
              </Collapse.Item>
            ))}
          </Collapse>
          <Text className="opinion-editor__source">
            {T.source}：{draft.template.source}
          </Text>
          <View className="opinion-editor__actions">
            <Button className="opinion-editor__secondary" onClick={() => setPreview(true)}>
              {T.preview}
            </Button>
            <Button className="opinion-editor__secondary" onClick={() => setNaming(true)}>
              {T.saveVariant}
            </Button>
            <Button className="opinion-editor__primary" type="primary" onClick={editor.openSign}>
              {T.sign}
            </Button>
          </View>
          <Popup
            visible={preview}
            position="bottom"
            round
            closeable
            title={T.previewTitle}
            onClose={() => setPreview(false)}
          >
            <View className="opinion-editor__preview">
              <OpinionView
                opinion={{
                  template: draft.template,
                  sentences: opinionSentences(
                    draft.template,
                    draft.values,
                    new Set(Object.keys(draft.aiFields)),
                  ),
                  pins: draft.pins,
                  ai:
                    ai && Object.keys(draft.aiFields).length
                      ? { provider: ai.provider, fieldIds: Object.keys(draft.aiFields) }
                      : null,
                  patientLabel: space.patientLabel,
                }}
              />
            </View>
          </Popup>
          <Popup
            visible={naming}
            position="bottom"
            round
            closeable
            title={T.variantTitle}
            onClose={() => setNaming(false)}
          >
            <View className="opinion-editor__naming">
              <Text className="opinion-editor__hint">{T.variantText}</Text>
              <Input
                value={name}
                placeholder={T.variantPlaceholder}
                maxLength={20}
                onChange={setName}
              />
              <Button
                type="primary"
                block
                disabled={!name.trim()}
                onClick={async () => {
                  if (await editor.saveVariant(name.trim())) setNaming(false)
                }}
              >
                {T.saveVariant}
              </Button>
            </View>
          </Popup>
          <ReauthSheet
            className="opinion-sign"
            visible={editor.signing}
            title={T.signTitle}
            text={T.signText}
            submitText={T.sign}
            busyText={T.signing}
            busy={editor.busy}
            error={editor.signError}
            onClose={editor.closeSign}
            onSubmit={editor.sign}
            sendCode={editor.sendCode}
          />
        </>
      )}
    </View>
  )
}

/** Which shared exam to pin from, when there are several. */
export function ExamChooser({
  exams,
  visible,
  onChoose,
  onClose,
}: {
  exams: { examId: string; title: string; modality: string }[]
  visible: boolean
  onChoose: (examId: string) => void
  onClose: () => void
}) {
  const options = exams.map((exam) => ({
    name: `${exam.title}（${exam.modality}）`,
    examId: exam.examId,
  }))
  return (
    <ActionSheet
      visible={visible}
      title={T.pinChooseExam}
      options={options}
      cancelText="取消"
      onCancel={onClose}
      onSelect={(_item, index) => {
        const chosen = options[index]
        onClose()
        if (chosen) onChoose(chosen.examId)
      }}
    />
  )
}
