import { Text, View } from '@tarojs/components'
import { Button, Switch } from '@nutui/nutui-react-taro'
import { type ReactNode, useState } from 'react'
import { PageState } from '@/components/page-state'
import {
  type ConsultDetail,
  type ConsultPicture,
  CONSULT_GRANT_DAYS_AFTER,
  yuanOf,
} from '@/services/consultations'
import { timeFormat } from '@/utils/time'
import { DemoPaySheet } from '../../apply/components/demo-pay-sheet'
import { PictureGrid } from '../../apply/components/picture-grid'
import { ConsultNotice, ConsultStatusTag, ExpertMiniCard } from '../../shared/consult-parts'
import { deadlineText } from '../../shared/countdown'
import type { ConsultDetailModel } from '../hooks/use-consult-detail'
import { isEnded } from '../hooks/use-my-consultations'
import { ComplaintSheet, RatingSheet } from './rating-sheet'
import '../../apply/components/apply.scss'
import './patient.scss'

const TIME = 'yyyy-mm-dd hh:MM'

type SharedRecord = ConsultDetail['records'][number]

const PAYMENT_LABELS: Record<ConsultDetail['order']['paymentState'], string> = {
  pending: '待支付',
  paid: '已支付',
  closed: '已关闭（未支付）',
}

const PROVIDER_LABELS: Record<ConsultDetail['order']['provider'], string> = {
  wechatpay: '微信支付',
  demo: '演示支付（无真实扣款）',
  unconfigured: '支付未配置',
}

/** 公开到专家主页: what is shown and what never is. */
export const PUBLIC_EXPLANATION =
  '公开后，专家主页和搜索中会显示匿名的问题和回复（如“患者 男 45岁”），不显示姓名、图片、检查影像和报告。您可随时撤回。'

function Row({ label, value }: { label: string; value: string }) {
  if (value.trim() === '') return null
  return (
    <View className="consult-summary__row">
      <Text className="consult-summary__label">{label}</Text>
      <Text className="consult-summary__value">{value}</Text>
    </View>
  )
}

/** Consultation pictures are read-only here: the ids are the server's, the urls bearer-read. */
function Pictures({ pictures }: { pictures: readonly ConsultPicture[] }) {
  if (pictures.length === 0) return null
  return <PictureGrid pictures={pictures} />
}

function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <View className="consult-page__card">
      <Text className="consult-form__label">{title}</Text>
      {children}
    </View>
  )
}

export interface QuestionDetailViewProps {
  model: ConsultDetailModel
  onOpenRecord: (record: SharedRecord, detail: ConsultDetail) => void
  onConversation: (detail: ConsultDetail) => void
  onDeleted: () => void
}

/**
 * 咨询详情: where it stands (and the time left), the expert, the notice, what was asked, what was
 * shared and until when, the history, the order with its payment and refunds, and only the
 * buttons `detail.actions` allows.
 */
export function QuestionDetailView({
  model,
  onOpenRecord,
  onConversation,
  onDeleted,
}: QuestionDetailViewProps) {
  const [sheet, setSheet] = useState<'rate' | 'complain' | null>(null)
  if (model.status === 'loading' || (model.status === 'ready' && !model.detail)) {
    return <PageState status="loading" />
  }
  if (model.status === 'error' || !model.detail) {
    return <PageState status="error" message={model.message} onRetry={model.retry} />
  }
  const detail = model.detail
  const { actions, order } = detail
  const left = deadlineText(detail.deadlineLabel, detail.deadline)
  const talking = ['in-progress', 'answered', 'completed'].includes(detail.state) || actions.send
  const patient = detail.role === 'patient'
  const buttons = [
    actions.pay && {
      key: 'pay',
      text: '去支付',
      primary: true,
      run: () => void model.pay.start(detail.id),
    },
    actions.adopt && { key: 'adopt', text: '采纳', primary: true, run: () => void model.adopt() },
    actions.rate && { key: 'rate', text: '评价', primary: true, run: () => setSheet('rate') },
    talking && {
      key: 'talk',
      text: '进入对话',
      primary: !actions.adopt,
      run: () => onConversation(detail),
    },
    actions.cancel && {
      key: 'cancel',
      text: '取消咨询',
      primary: false,
      run: () => void model.cancel(),
    },
    actions.complain && {
      key: 'complain',
      text: '投诉',
      primary: false,
      run: () => setSheet('complain'),
    },
  ].filter((button): button is { key: string; text: string; primary: boolean; run: () => void } =>
    Boolean(button),
  )

  return (
    <View className={`consult-page${buttons.length > 0 ? ' consult-page--with-bar' : ''}`}>
      <View className="consult-page__card">
        <View className="consult-detail__state">
          <ConsultStatusTag state={detail.state} label={detail.stateLabel} />
          <Text className="consult-detail__service">{detail.serviceLabel}</Text>
        </View>
        {left && <Text className="consult-detail__left">{left}</Text>}
        {detail.declineReason && (
          <Text className="consult-detail__reason">专家未接诊：{detail.declineReason}</Text>
        )}
        {detail.disputed && (
          <Text className="consult-detail__reason">投诉处理中，费用暂不结算</Text>
        )}
        <View className="consult-detail__expert">
          <ExpertMiniCard expert={detail.expert} />
        </View>
        {detail.service === 'text' && detail.followupLimit > 0 && (
          <Text className="consult-form__hint">
            追问 {detail.followupsUsed}/{detail.followupLimit} 次
          </Text>
        )}
      </View>

      <ConsultNotice />

      <Card title="申请内容">
        <Row
          label="就诊人"
          value={`${detail.person.relationLabel} ${detail.person.nameMasked}${detail.person.age === null ? '' : ` ${detail.person.age}岁`}`}
        />
        <Row label="主诉" value={detail.chiefComplaint} />
        <Row label="现病史" value={detail.presentIllness} />
        <Row label="既往史" value={detail.pastHistory} />
        <Row label="过敏史" value={detail.allergies} />
        <Row label="想问的问题" value={detail.questions} />
        <Row label="线下就诊" value={detail.seenOffline ? '已就诊' : '未就诊'} />
        <Pictures pictures={detail.offlinePictures} />
        {detail.externalExams.map((exam, index) => (
          <View key={index} className="consult-detail__external">
            <Row label="院外检查" value={[exam.hospital, exam.date, exam.type].join(' · ')} />
            <Pictures pictures={exam.pictures} />
          </View>
        ))}
      </Card>

      {model.answers.length > 0 && (
        <Card title="专家回复">
          {model.answers.map((message) => (
            <View key={message.id} className="consult-answer">
              {message.kind === 'addendum' && (
                <Text className="consult-answer__kind">补充说明</Text>
              )}
              {message.answer ? (
                <>
                  <Row label="影像所见" value={message.answer.findings} />
                  <Row
                    label={detail.service === 'text' ? '回复' : '会诊意见'}
                    value={message.answer.opinion}
                  />
                  <Row label="建议" value={message.answer.advice} />
                </>
              ) : (
                <Text className="consult-summary__value">{message.text}</Text>
              )}
              <Text className="consult-event__time">
                {detail.expert.name}
                {message.signedAt
                  ? ` 签署于 ${timeFormat(message.signedAt, TIME)}`
                  : ` ${timeFormat(message.createdAt, TIME)}`}
              </Text>
            </View>
          ))}
        </Card>
      )}

      <Card title="共享给专家的资料">
        {detail.records.length === 0 && (
          <Text className="consult-page__muted">未选择本应用中的检查或报告</Text>
        )}
        {detail.records.map((record) => (
          <View
            key={`${record.kind}:${record.id}`}
            className="consult-summary__record consult-detail__record"
            role="button"
            onClick={() => onOpenRecord(record, detail)}
          >
            <Text className="consult-summary__kind">
              {record.kind === 'exam' ? '影像' : '报告'}
            </Text>
            <View className="consult-summary__value">
              <Text>
                {record.title}
                {record.private ? '（隐私报告）' : ''}
              </Text>
              <Text className="consult-record__detail">
                {[record.hospitalName, record.studyDate].filter(Boolean).join(' · ')}
              </Text>
            </View>
            <Text className="consult-detail__open">查看</Text>
          </View>
        ))}
        <Text className="consult-form__hint">
          授权{detail.grant.statusLabel}，
          {detail.grant.status === 'active'
            ? `有效至 ${timeFormat(detail.grant.expiresAt, TIME)}（咨询结束后 ${CONSULT_GRANT_DAYS_AFTER} 天自动失效），可在“授权记录”中撤销`
            : `咨询结束后 ${CONSULT_GRANT_DAYS_AFTER} 天失效`}
        </Text>
      </Card>

      {detail.rating && (
        <Card title="我的评价">
          <Text className="rating-stars__shown" aria-label={`${detail.rating.stars} 星`}>
            {'★'.repeat(detail.rating.stars)}
            {'☆'.repeat(5 - detail.rating.stars)}
          </Text>
          {detail.rating.tags.length > 0 && (
            <Text className="consult-form__hint">{detail.rating.tags.join('、')}</Text>
          )}
          {detail.rating.text !== '' && (
            <Text className="consult-summary__value">{detail.rating.text}</Text>
          )}
        </Card>
      )}

      {detail.complaint && (
        <Card title="投诉">
          <Row label="原因" value={detail.complaint.text} />
          <Row label="提交时间" value={timeFormat(detail.complaint.at, TIME)} />
          <Row
            label="处理结果"
            value={
              detail.complaint.state === 'open'
                ? '平台处理中'
                : `${detail.complaint.decision ?? '已处理'}${detail.complaint.refundFen ? `（退款 ¥${yuanOf(detail.complaint.refundFen)}）` : ''}`
            }
          />
        </Card>
      )}

      {patient && (actions.publish || detail.public) && (
        <Card title="公开到专家主页">
          <View className="consult-detail__public">
            <Text className="consult-form__hint consult-detail__public-text">
              {PUBLIC_EXPLANATION}
            </Text>
            <Switch
              checked={detail.public}
              disabled={model.busy || !actions.publish}
              onChange={(value) => void model.setPublic(value)}
            />
          </View>
        </Card>
      )}

      <Card title="进度">
        {detail.events.map((event, index) => (
          <View key={`${event.at}:${index}`} className="consult-event">
            <View className="consult-event__dot" />
            <View className="consult-event__text">
              <Text className="consult-event__label">
                {event.label}
                <Text className="consult-event__actor"> · {event.actorLabel}</Text>
              </Text>
              {event.note && <Text className="consult-event__note">{event.note}</Text>}
              <Text className="consult-event__time">{timeFormat(event.at, TIME)}</Text>
            </View>
          </View>
        ))}
      </Card>

      <Card title="订单">
        <Row label="订单号" value={order.orderNo} />
        <Row label="金额" value={`¥${yuanOf(order.priceFen)}`} />
        <Row
          label="其中"
          value={`专家费 ¥${yuanOf(order.expertFen)} · 平台服务费 ¥${yuanOf(order.platformFen)}`}
        />
        <Row label="支付方式" value={PROVIDER_LABELS[order.provider]} />
        <Row
          label="支付状态"
          value={`${PAYMENT_LABELS[order.paymentState]}${order.paidAt ? ` · ${timeFormat(order.paidAt, TIME)}` : ''}`}
        />
        {order.paymentState === 'pending' && (
          <Row label="支付截止" value={timeFormat(order.payBy, TIME)} />
        )}
        {order.refunds.map((refund) => (
          <View key={refund.refundNo} className="consult-refund">
            <Row label="退款" value={`¥${yuanOf(refund.amountFen)} · ${refund.stateLabel}`} />
            <Row label="原因" value={refund.reason} />
            <Row
              label="时间"
              value={`发起 ${timeFormat(refund.createdAt, TIME)}${refund.succeededAt ? `，到账 ${timeFormat(refund.succeededAt, TIME)}` : ''}`}
            />
          </View>
        ))}
      </Card>

      {patient && isEnded(detail.state) && (
        <Text
          className="consult-detail__delete"
          onClick={() =>
            void model.remove().then((gone) => {
              if (gone) onDeleted()
            })
          }
        >
          删除这条咨询
        </Text>
      )}

      {buttons.length > 0 && (
        <View className="consult-bar consult-detail__bar">
          {buttons.map((button) => (
            <Button
              key={button.key}
              className="consult-detail__button"
              type={button.primary ? 'primary' : 'default'}
              size="small"
              disabled={model.busy}
              onClick={button.run}
            >
              {button.text}
            </Button>
          ))}
        </View>
      )}

      <RatingSheet
        visible={sheet === 'rate' && actions.rate}
        busy={model.busy}
        onClose={() => setSheet(null)}
        onSubmit={(value) =>
          void model.rate(value).then((ok) => {
            if (ok) setSheet(null)
          })
        }
      />
      <ComplaintSheet
        visible={sheet === 'complain' && actions.complain}
        busy={model.busy}
        onClose={() => setSheet(null)}
        onSubmit={(text) =>
          void model.complain(text).then((ok) => {
            if (ok) setSheet(null)
          })
        }
      />
      <DemoPaySheet pay={model.pay} />
    </View>
  )
}
