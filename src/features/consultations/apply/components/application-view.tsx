import { Text, View } from '@tarojs/components'
import { Button, TextArea } from '@nutui/nutui-react-taro'
import { PageState } from '@/components/page-state'
import { CHIEF_COMPLAINT_MAX, HISTORY_MAX, QUESTIONS_MAX } from '@/services/consultations'
import { ConsultNotice } from '../../shared/consult-parts'
import type { ApplyField } from '../draft'
import type { ConsultDraft } from '../draft-store'
import { type ApplicationModel, type ConsultPersonItem, isSelf } from '../hooks/use-application'
import { PictureGrid } from './picture-grid'
import './apply.scss'

const SEX_LABELS: Record<ConsultPersonItem['sex'], string> = {
  male: '男',
  female: '女',
  unknown: '',
}

/** 男 45岁: what the ID card says, as far as it is known. */
export function sexAge(person: Pick<ConsultPersonItem, 'sex' | 'age'>): string {
  return [SEX_LABELS[person.sex], person.age === null ? '' : `${person.age}岁`]
    .filter(Boolean)
    .join(' ')
}

type TextField = Extract<
  keyof ConsultDraft,
  'chiefComplaint' | 'presentIllness' | 'pastHistory' | 'allergies' | 'questions'
>

/** The texts of the application: label, placeholder (a hint of what helps), limit, required. */
export const TEXT_FIELDS: readonly {
  key: TextField & ApplyField
  label: string
  placeholder: string
  max: number
  required: boolean
}[] = [
  {
    key: 'chiefComplaint',
    label: '主诉',
    placeholder: '主要不适和持续时间，如：体检发现肺结节 2 周',
    max: CHIEF_COMPLAINT_MAX,
    required: true,
  },
  {
    key: 'presentIllness',
    label: '现病史',
    placeholder: '发病经过、做过的检查和治疗、目前情况',
    max: HISTORY_MAX,
    required: false,
  },
  {
    key: 'pastHistory',
    label: '既往史',
    placeholder: '以往疾病、手术、长期用药（没有可不填）',
    max: HISTORY_MAX,
    required: false,
  },
  {
    key: 'allergies',
    label: '过敏史',
    placeholder: '药物或造影剂过敏（没有可不填）',
    max: 200,
    required: false,
  },
  {
    key: 'questions',
    label: '想问专家的问题',
    placeholder: '写下您最想请专家解答的问题',
    max: QUESTIONS_MAX,
    required: true,
  },
]

function Problem({ text }: { text: string | undefined }) {
  if (!text) return null
  return (
    <View className="consult-form__error" role="alert">
      {text}
    </View>
  )
}

function PersonPicker({
  model,
  onBindIdCard,
  onFamily,
}: {
  model: ApplicationModel
  onBindIdCard: () => void
  onFamily: () => void
}) {
  const { people, person } = model
  if (people.status === 'loading') return <PageState status="loading" />
  if (people.status === 'error') {
    return <PageState status="error" message={people.message} onRetry={people.retry} />
  }
  const selfChosen = person ? isSelf(person, people.items.indexOf(person)) : false
  return (
    <View className="consult-page__card">
      <Text className="consult-form__label">就诊人</Text>
      <View className="consult-people" role="radiogroup">
        {people.items.map((item) => {
          const on = person?.personId === item.personId
          return (
            <View
              key={item.personId}
              role="radio"
              aria-checked={on}
              className={`consult-people__item${on ? ' consult-people__item--on' : ''}`}
              onClick={() => model.choosePerson(item)}
            >
              <Text className="consult-people__relation">{item.relationLabel}</Text>
              <Text className="consult-people__name">{item.nameMasked}</Text>
              <Text className="consult-people__meta">
                {item.idCardBound ? sexAge(item) || '已实名' : '未绑定身份证'}
              </Text>
            </View>
          )
        })}
        <View className="consult-people__item consult-people__item--add" onClick={onFamily}>
          <Text className="consult-people__relation">+ 家人</Text>
          <Text className="consult-people__meta">在亲情卡中添加</Text>
        </View>
      </View>
      {person && !person.idCardBound && (
        <View className="consult-form__notice" role="alert">
          <Text className="consult-form__notice-text">
            {selfChosen
              ? '咨询需要实名：请先绑定您的身份证，专家会看到就诊人的性别和年龄（不会看到身份证号）。'
              : '咨询需要实名：该家人尚未登记身份证，请在亲情卡中完善后再来。'}
          </Text>
          <Button size="small" type="primary" onClick={selfChosen ? onBindIdCard : onFamily}>
            {selfChosen ? '去绑定身份证' : '去亲情卡'}
          </Button>
        </View>
      )}
      <Problem text={person && !person.idCardBound ? undefined : model.problems.person} />
    </View>
  )
}

export interface ApplicationViewProps {
  model: ApplicationModel
  onBindIdCard: () => void
  onFamily: () => void
  onNext: () => void
}

/** 会诊申请: for whom, what is wrong, the history, the questions, seen offline or not. */
export function ApplicationView({ model, onBindIdCard, onFamily, onNext }: ApplicationViewProps) {
  const { draft, update, problems } = model
  return (
    <View className="consult-page consult-page--with-bar">
      <ConsultNotice />
      <PersonPicker model={model} onBindIdCard={onBindIdCard} onFamily={onFamily} />
      <View className="consult-page__card">
        {TEXT_FIELDS.map((field) => (
          <View key={field.key} className="consult-form__field">
            <Text className="consult-form__label">
              {field.label}
              {field.required ? <Text className="consult-form__required"> *</Text> : null}
            </Text>
            <TextArea
              className="consult-form__area"
              value={draft[field.key]}
              placeholder={field.placeholder}
              maxLength={field.max}
              showCount
              autoSize
              onChange={(value) => update({ [field.key]: value })}
            />
            <Problem text={problems[field.key]} />
          </View>
        ))}
      </View>
      <View className="consult-page__card">
        <Text className="consult-form__label">
          是否已在线下医院就诊<Text className="consult-form__required"> *</Text>
        </Text>
        <View className="consult-choice" role="radiogroup">
          {[
            { value: true, text: '已就诊' },
            { value: false, text: '未就诊' },
          ].map((choice) => (
            <View
              key={choice.text}
              role="radio"
              aria-checked={draft.seenOffline === choice.value}
              className={`consult-choice__item${draft.seenOffline === choice.value ? ' consult-choice__item--on' : ''}`}
              onClick={() => update({ seenOffline: choice.value })}
            >
              <Text>{choice.text}</Text>
            </View>
          ))}
        </View>
        <Problem text={problems.seenOffline} />
        {draft.seenOffline === true && (
          <View className="consult-form__field">
            <Text className="consult-form__hint">
              可上传门诊病历、出院小结等照片（选填，最多 9 张），帮助专家了解线下诊断
            </Text>
            <PictureGrid
              pictures={draft.offlinePictures}
              uploading={model.pictures.uploading}
              onAdd={() => void model.addOfflinePictures()}
              onRemove={model.removeOfflinePicture}
            />
            <Problem text={problems.offlinePictures} />
          </View>
        )}
        {draft.seenOffline === false && (
          <Text className="consult-form__hint">
            线上咨询不能替代首次就诊，如症状明显请先到医院就诊
          </Text>
        )}
      </View>
      <Text className="consult-page__saved">填写内容会自动保存在本机，提交后清除</Text>
      <View className="consult-bar">
        <Button className="consult-bar__button" type="primary" block onClick={onNext}>
          下一步：检查信息
        </Button>
      </View>
    </View>
  )
}
