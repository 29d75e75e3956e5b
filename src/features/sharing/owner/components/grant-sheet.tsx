import { Text, View } from '@tarojs/components'
import { Button, Checkbox, Input, Popup, Switch } from '@nutui/nutui-react-taro'
import { useEffect, useMemo, useState } from 'react'
import { useResource } from '@/hooks/use-resource'
import { describeError } from '@/services/api'
import { navigate } from '@/services/navigate'
import {
  createGrant,
  GRANT_DURATION_LABELS,
  GRANT_DURATIONS,
  GRANT_MAX_VIEWS_MAX,
  type CreatedGrant,
  type GrantAudience,
  type GrantDuration,
} from '@/services/grants'
import { listExams } from '@/services/records'
import {
  choicesOf,
  type GrantChoice,
  initialForm,
  otherChoicesOf,
  toGrantInput,
  type GrantSubject,
} from '../grant-form'
import { useShareCard } from '../hooks/use-share-card'
import { GrantResult } from './grant-result'
import { Segments } from './segments'
import './grant-sheet.scss'

export interface GrantSheetProps {
  visible: boolean
  onClose: () => void
  /** The exam (and its report) the detail page shows. */
  subject: GrantSubject
  /** Ticked even when private: the report page shares the report it shows. */
  focus?: string
  /** A family member's records: the grant is theirs. */
  personId?: string
  /** 查看授权记录 after a grant is made; default: 授权记录 of this exam. */
  onOpenList?: () => void
}

const AUDIENCES: readonly { value: GrantAudience; text: string }[] = [
  { value: 'link', text: '链接 / 二维码' },
  { value: 'account', text: '医生 / 亲友账号' },
]
const DURATIONS = GRANT_DURATIONS.map((value) => ({ value, text: GRANT_DURATION_LABELS[value] }))

/**
 * 授权: what to share (the exam's images; its report unless private), with whom (an account by
 * phone number, or anyone with a link and its 提取码), for how long, and for a link how many
 * openings. Then the link, once.
 */
export function GrantSheet({
  visible,
  onClose,
  subject,
  focus,
  personId,
  onOpenList,
}: GrantSheetProps) {
  // Pages build the subject afresh on each render: what it says, not its identity, decides.
  const subjectKey = JSON.stringify(subject)
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const choices = useMemo(() => choicesOf(subject), [subjectKey])
  const [form, setForm] = useState(() => initialForm(choices, focus))
  const [error, setError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const [created, setCreated] = useState<CreatedGrant | null>(null)
  // The person's other exams, loaded when asked for (授权 of several records at once).
  const [askedOthers, setAskedOthers] = useState(false)
  const othersResource = useResource(
    askedOthers ? `${personId ?? ''}:${subject.examId ?? ''}` : null,
    async (signal) => {
      try {
        // The newest 50 of this person's exams: enough to pick from (a grant holds 20 at most).
        const page = await listExams({ pageSize: 50, ...(personId ? { personId } : {}) })
        return otherChoicesOf(page.items, subject.examId)
      } catch (failure) {
        // Said on the form's error line; the button offers them again.
        if (!signal.aborted) setError(describeError(failure, '其他检查加载失败，请稍后重试'))
        throw failure
      }
    },
  )
  const others: GrantChoice[] | 'loading' | null =
    othersResource.status === 'ready'
      ? othersResource.data
      : othersResource.status === 'loading'
        ? 'loading'
        : null
  const offered = Array.isArray(others) ? [...choices, ...others] : choices
  useShareCard(created?.link ? { title: created.link.title, path: created.link.path } : null)

  // Each opening starts afresh: a link made earlier is not shown again.
  useEffect(() => {
    if (!visible) return
    setForm(initialForm(choices, focus))
    setError(null)
    setCreated(null)
    setAskedOthers(false)
  }, [visible, choices, focus])

  const loadOthers = () => {
    if (othersResource.status === 'error') void othersResource.reload()
    else setAskedOthers(true)
  }

  const update = (patch: Partial<typeof form>) => {
    setForm((current) => ({ ...current, ...patch }))
    setError(null)
  }
  const toggle = (id: string) =>
    update({
      picked: form.picked.includes(id)
        ? form.picked.filter((one) => one !== id)
        : [...form.picked, id],
    })

  const submit = async () => {
    const result = toGrantInput(form, offered, personId)
    if (!result.ok) {
      setError(result.message)
      return
    }
    setSaving(true)
    try {
      setCreated(await createGrant(result.input))
    } catch (failure) {
      setError(describeError(failure, '授权失败，请稍后重试'))
    } finally {
      setSaving(false)
    }
  }

  const renderChoice = (choice: GrantChoice) => (
    <View
      key={`${choice.kind}:${choice.id}`}
      className="grant-sheet__record"
      onClick={() => toggle(choice.id)}
    >
      <Checkbox
        className="grant-sheet__box"
        checked={form.picked.includes(choice.id)}
        onChange={() => toggle(choice.id)}
      />
      <View className="grant-sheet__record-text">
        <Text className="grant-sheet__record-label">
          {choice.label}
          {choice.private && <Text className="grant-sheet__private">隐私</Text>}
        </Text>
        <Text className="grant-sheet__note">{choice.note}</Text>
      </View>
    </View>
  )

  const link = form.audience === 'link'
  return (
    <Popup
      visible={visible}
      position="bottom"
      round
      title={created ? '授权' : '授权给他人查看'}
      onClose={onClose}
    >
      <View className="grant-sheet">
        {created ? (
          <GrantResult
            created={created}
            onDone={onClose}
            onOpenList={() => {
              onClose()
              if (onOpenList) onOpenList()
              else
                void navigate('grantList', {
                  examId: subject.examId,
                  // A member's grant is listed among the member's.
                  ...(personId ? { personId } : {}),
                })
            }}
          />
        ) : (
          <>
            <Text className="grant-sheet__heading">授权内容</Text>
            {choices.length === 0 && (
              <Text className="grant-sheet__note">这次检查暂时没有可授权的影像或报告</Text>
            )}
            {choices.map(renderChoice)}
            {Array.isArray(others) && (
              <Text className="grant-sheet__heading">
                {others.length > 0 ? '其他检查（可多选）' : '没有其他检查'}
              </Text>
            )}
            {Array.isArray(others) && others.map(renderChoice)}
            {!Array.isArray(others) && (
              <View
                className="grant-sheet__more"
                onClick={others === 'loading' ? undefined : loadOthers}
              >
                <Text>{others === 'loading' ? '加载中…' : '＋ 同时授权其他检查'}</Text>
              </View>
            )}

            <Text className="grant-sheet__heading">授权给</Text>
            <Segments
              label="授权给"
              options={AUDIENCES}
              value={form.audience}
              onChange={(audience) => update({ audience })}
            />
            {link ? (
              <Text className="grant-sheet__note">
                生成链接和二维码，对方无需注册即可查看（仅查看，不能再次分享）
              </Text>
            ) : (
              <View className="grant-sheet__field">
                <Input
                  className="grant-sheet__input"
                  type="number"
                  maxLength={11}
                  value={form.mobile}
                  placeholder="对方注册时用的手机号"
                  clearable
                  onChange={(mobile) => update({ mobile })}
                />
                <Text className="grant-sheet__note">授权后出现在对方的「共享给我的」中</Text>
              </View>
            )}

            <Text className="grant-sheet__heading">有效期</Text>
            <Segments<GrantDuration>
              label="有效期"
              options={DURATIONS}
              value={form.duration}
              onChange={(duration) => update({ duration })}
            />

            {link && (
              <>
                <View className="grant-sheet__switch-row">
                  <View className="grant-sheet__record-text">
                    <Text className="grant-sheet__record-label">提取码</Text>
                    <Text className="grant-sheet__note">
                      4 位数字，由系统生成，打开链接时需输入
                    </Text>
                  </View>
                  <Switch
                    aria-label="需要提取码"
                    checked={form.pickupCode}
                    onChange={(pickupCode) => update({ pickupCode })}
                  />
                </View>
                <View className="grant-sheet__switch-row">
                  <View className="grant-sheet__record-text">
                    <Text className="grant-sheet__record-label">最多打开次数</Text>
                    <Text className="grant-sheet__note">
                      留空为不限，最多 {GRANT_MAX_VIEWS_MAX} 次
                    </Text>
                  </View>
                  <Input
                    className="grant-sheet__views"
                    type="number"
                    maxLength={3}
                    value={form.maxViews}
                    placeholder="不限"
                    onChange={(maxViews) => update({ maxViews })}
                  />
                </View>
              </>
            )}

            {error && (
              <View className="grant-sheet__error" role="alert">
                {error}
              </View>
            )}
            <Button
              className="grant-sheet__submit"
              type="primary"
              block
              loading={saving}
              disabled={saving || choices.length === 0}
              onClick={() => void submit()}
            >
              {link ? '生成链接' : '确认授权'}
            </Button>
            <Text className="grant-sheet__foot">
              可随时在「授权记录」中撤销，谁在何时查看过也记录在那里
            </Text>
          </>
        )}
      </View>
    </Popup>
  )
}
