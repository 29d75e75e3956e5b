import { Text, View } from '@tarojs/components'
import { Switch } from '@nutui/nutui-react-taro'
import { useState } from 'react'
import { FormError } from '@/components/form/form-error'
import { FormField } from '@/components/form/form-field'
import { type Rule } from '@/components/form/rules'
import { SubmitButton } from '@/components/form/submit-button'
import { TextAreaField } from '@/components/form/text-area-field'
import { useForm } from '@/components/form/use-form'
import { PageState } from '@/components/page-state'
import {
  type ConsultService,
  DAILY_LIMIT_MAX,
  DAILY_LIMIT_MIN,
  EXPERT_APPLICATION_STATUS_LABELS,
  EXPERT_MESSAGES,
  EXPERT_PROFILE_MESSAGES,
  EXPERT_SERVICE_RULES,
  INTRODUCTION_MAX,
  type MyExpertSettings,
  SPECIALITIES_MAX,
  SPECIALITY_OPTIONS,
} from '@/services/expert-profiles'
import { yuanInput, yuanText, yuanToFen } from '@/utils/money'
import {
  DAILY_LIMIT_RULES,
  FOLLOWUP_LIMIT_RULES,
  type ExpertSettingsModel,
  priceRules,
  specialitiesProblem,
} from '../hooks/use-expert-settings'
import './expert-settings.scss'

const PRICE_FIELDS = { text: 'textPrice', imaging: 'imagingPrice' } as const
type ServiceField = (typeof PRICE_FIELDS)[ConsultService]
const ALWAYS: Rule[] = []

/** The banners above everything: the platform's suspension, a change of hospital under review. */
function Notices({ settings }: { settings: MyExpertSettings }) {
  const pending = settings.pendingChange
  const statusLabel = pending
    ? ((EXPERT_APPLICATION_STATUS_LABELS as Record<string, string>)[pending.status] ?? '审核中')
    : ''
  return (
    <>
      {settings.suspension && (
        <View className="expert-settings__banner expert-settings__banner--danger" role="alert">
          <Text>{EXPERT_PROFILE_MESSAGES.suspended(settings.suspension.reason)}</Text>
        </View>
      )}
      {pending && (
        <View className="expert-settings__banner" role="status">
          <Text>
            您修改医院、科室或职称的申请{statusLabel}。审核通过前，主页仍显示已认证的信息。
          </Text>
        </View>
      )}
    </>
  )
}

function ServicesForm({
  settings,
  onSave,
}: {
  settings: MyExpertSettings
  onSave: ExpertSettingsModel['saveServices']
}) {
  const services = settings.profile.services
  const [enabled, setEnabled] = useState<Record<ConsultService, boolean>>(() => ({
    text: services.find((service) => service.kind === 'text')?.enabled ?? false,
    imaging: services.find((service) => service.kind === 'imaging')?.enabled ?? false,
  }))
  const priceOf = (kind: ConsultService) =>
    services.find((service) => service.kind === kind)?.priceFen ??
    EXPERT_SERVICE_RULES[kind].defaultFen
  const form = useForm<ServiceField | 'dailyLimit' | 'followupLimit'>({
    // A service that is off keeps its saved price, unchecked: it is not sent changed.
    textPrice: {
      rules: enabled.text ? priceRules('text') : ALWAYS,
      initial: yuanInput(priceOf('text')),
    },
    imagingPrice: {
      rules: enabled.imaging ? priceRules('imaging') : ALWAYS,
      initial: yuanInput(priceOf('imaging')),
    },
    dailyLimit: { rules: DAILY_LIMIT_RULES, initial: String(settings.dailyLimit) },
    followupLimit: { rules: FOLLOWUP_LIMIT_RULES, initial: String(settings.followupLimit) },
  })

  const save = () =>
    form.submit(() =>
      onSave({
        accepting: settings.profile.accepting,
        dailyLimit: Number(form.values.dailyLimit.trim()),
        followupLimit: Number(form.values.followupLimit.trim()),
        services: (Object.keys(PRICE_FIELDS) as ConsultService[]).map((kind) => ({
          kind,
          enabled: enabled[kind],
          priceFen: enabled[kind]
            ? (yuanToFen(form.values[PRICE_FIELDS[kind]]) ?? priceOf(kind))
            : priceOf(kind),
        })),
      }),
    )

  return (
    <View className="expert-settings__card">
      <Text className="expert-settings__heading">咨询服务与价格</Text>
      {(Object.keys(PRICE_FIELDS) as ConsultService[]).map((kind) => {
        const rule = EXPERT_SERVICE_RULES[kind]
        return (
          <View key={kind} className="expert-settings__service">
            <View className="expert-settings__row">
              <View className="expert-settings__text">
                <Text className="expert-settings__name">{rule.label}</Text>
                <Text className="expert-settings__hint">
                  承诺 {rule.hours} 小时内回复 · 可设 {yuanText(rule.minFen)} 至{' '}
                  {yuanText(rule.maxFen)}
                </Text>
              </View>
              <Switch
                ariaLabel={`开通${rule.label}`}
                checked={enabled[kind]}
                onChange={(value) => setEnabled((current) => ({ ...current, [kind]: value }))}
              />
            </View>
            {enabled[kind] ? (
              <FormField
                label="价格（元）"
                field={form.field(PRICE_FIELDS[kind])}
                placeholder={`如 ${yuanInput(rule.defaultFen)}`}
                type="digit"
                maxLength={10}
              />
            ) : (
              <Text className="expert-settings__off">未开通，患者看不到此项服务</Text>
            )}
          </View>
        )
      })}
      <FormField
        label="每日上限"
        field={form.field('dailyLimit')}
        placeholder={`${DAILY_LIMIT_MIN} 至 ${DAILY_LIMIT_MAX}`}
        type="number"
        maxLength={3}
      />
      <Text className="expert-settings__hint">
        每天最多接受的新咨询数（{DAILY_LIMIT_MIN} 至 {DAILY_LIMIT_MAX}），达到后当天不再接受新的咨询
      </Text>
      <FormField
        label="追问次数"
        field={form.field('followupLimit')}
        placeholder="0 至 10"
        type="number"
        maxLength={2}
      />
      <Text className="expert-settings__hint">
        图文咨询回复后 48 小时内，患者最多可追问的次数（0 至 10）
      </Text>
      <FormError message={form.submitError} />
      <SubmitButton text="保存服务设置" busy={form.submitting} busyText="保存中…" onClick={save} />
    </View>
  )
}

function ProfileForm({
  settings,
  onSave,
}: {
  settings: MyExpertSettings
  onSave: ExpertSettingsModel['saveProfile']
}) {
  const [picked, setPicked] = useState<string[]>(() => [...settings.profile.specialities])
  const [showProblem, setShowProblem] = useState(false)
  const form = useForm<'introduction'>({
    introduction: {
      rules: [
        {
          test: (value) => value.trim().length <= INTRODUCTION_MAX,
          message: EXPERT_MESSAGES.introductionLong,
        },
      ],
      initial: settings.profile.introduction,
    },
  })
  const problem = specialitiesProblem(picked)
  const toggle = (item: string) =>
    setPicked((current) =>
      current.includes(item)
        ? current.filter((one) => one !== item)
        : current.length >= SPECIALITIES_MAX
          ? current
          : [...current, item],
    )
  const save = () => {
    setShowProblem(true)
    if (problem) {
      form.validate()
      return
    }
    form.submit(() => onSave(form.values.introduction.trim(), picked))
  }

  return (
    <View className="expert-settings__card">
      <Text className="expert-settings__heading">简介与擅长方向</Text>
      <Text className="expert-settings__hint">保存后立即在主页显示，无需审核</Text>
      <TextAreaField
        label="个人简介"
        field={form.field('introduction')}
        placeholder="介绍您的专业背景、擅长的检查和疾病，患者会在主页看到"
        maxLength={INTRODUCTION_MAX}
      />
      <View className="expert-settings__tags-head">
        <Text className="expert-settings__name">擅长方向</Text>
        <Text className="expert-settings__hint">
          已选 {picked.length}/{SPECIALITIES_MAX}
        </Text>
      </View>
      <View className="expert-settings__tags" role="group" aria-label="擅长方向">
        {SPECIALITY_OPTIONS.map((item) => {
          const on = picked.includes(item)
          const full = !on && picked.length >= SPECIALITIES_MAX
          return (
            <View
              key={item}
              role="checkbox"
              aria-checked={on}
              aria-disabled={full}
              className={`expert-settings__tag${on ? ' expert-settings__tag--on' : ''}${
                full ? ' expert-settings__tag--full' : ''
              }`}
              onClick={() => toggle(item)}
            >
              {item}
            </View>
          )
        })}
      </View>
      {showProblem && problem && (
        <View className="form-field__error" role="alert">
          {problem}
        </View>
      )}
      <FormError message={form.submitError} />
      <SubmitButton
        text="保存简介和擅长方向"
        busy={form.submitting}
        busyText="保存中…"
        onClick={save}
      />
    </View>
  )
}

export interface ExpertSettingsViewProps {
  model: ExpertSettingsModel
  onCertify: () => void
  onOpenProfile: (expertId: string) => void
}

/** 服务设置: 接诊中 / 暂停接诊, the services and their prices, the daily limit, the profile text. */
export function ExpertSettingsView({ model, onCertify, onOpenProfile }: ExpertSettingsViewProps) {
  const { state } = model
  if (model.access === 'not-expert') {
    return (
      <PageState
        status="empty"
        message={EXPERT_PROFILE_MESSAGES.notCertified}
        action={{ text: '去认证', onClick: onCertify }}
      />
    )
  }
  if (state.status === 'loading' || state.status === 'idle') return <PageState status="loading" />
  if (state.status === 'error') {
    return <PageState status="error" message={state.message} onRetry={() => void state.reload()} />
  }
  const settings = state.data
  const accepting = settings.profile.accepting
  return (
    <View className="expert-settings">
      <Notices settings={settings} />
      <View className="expert-settings__card">
        <View className="expert-settings__row">
          <View className="expert-settings__text">
            <Text className="expert-settings__name">{accepting ? '接诊中' : '暂停接诊'}</Text>
            <Text className="expert-settings__hint">
              {settings.suspension
                ? '平台暂停期间，患者看不到您的主页，也不能发起新的咨询'
                : accepting
                  ? '患者可以向您发起新的咨询'
                  : '主页显示暂停接诊，患者暂时不能发起新的咨询；进行中的咨询不受影响'}
            </Text>
          </View>
          <Switch
            ariaLabel="接诊中"
            checked={accepting}
            loading={model.switching}
            onChange={(value) => void model.setAccepting(value)}
          />
        </View>
      </View>
      <ServicesForm settings={settings} onSave={model.saveServices} />
      <ProfileForm settings={settings} onSave={model.saveProfile} />
      <View
        className="expert-settings__link"
        role="link"
        onClick={() => onOpenProfile(settings.profile.id)}
      >
        <Text>查看我的主页（患者看到的样子）</Text>
      </View>
    </View>
  )
}
