import { useEffect, useRef, useState } from 'react'
import { Image, Text, View } from '@tarojs/components'
import Taro from '@tarojs/taro'
import { Button } from '@nutui/nutui-react-taro'
import { REJECT_REASON_MAX } from '@contract/main/experts'
import { useAuthorisedImage } from '@/components/authorised-image/use-authorised-image'
import { PageState } from '@/components/page-state'
import { showToast } from '@/platform/ui'
import { back, navigate } from '@/services/navigate'
import type { OperatorExpertApplication } from '@/services/operator-experts'
import { timeFormat } from '@/utils/time'
import { rejectReasonProblem, useExpertReview, type ExpertReview } from '../hooks/use-expert-review'
import './operator.scss'
import { ReasonBox } from './reason-box'
import './experts.scss'

/** The national registry's public lookup: no API exists, so checking it is the operator's own step. */
export const REGISTRY_URL = 'https://zwfw.nhc.gov.cn'
export const REGISTRY_STEP = `在国家卫生健康委员会「医生执业注册信息查询」（${REGISTRY_URL}）按姓名、证书编码核对执业地点、类别、范围`

async function copy(text: string, what: string) {
  try {
    await Taro.setClipboardData({ data: text })
    showToast(`已复制${what}`)
  } catch {
    showToast('复制失败，请长按文字手动复制')
  }
}

/** After a decision: its outcome, at the top of the page, is what the operator reads next. */
function scrollToTop() {
  try {
    void Taro.pageScrollTo({ scrollTop: 0, duration: 0 }).catch(() => undefined)
  } catch {
    // Nothing to scroll (the page has left): nothing to do.
  }
}

const time = (at: string | null) => (at ? timeFormat(at, 'yyyy-mm-dd hh:MM') : '—')

function Field({ label, value }: { label: string; value: string | null | undefined }) {
  return (
    <View className="expert-review__field">
      <Text className="expert-review__label">{label}</Text>
      <Text className="expert-review__value">{value || '未填写'}</Text>
    </View>
  )
}

function NumberField({ label, value }: { label: string; value: string | null }) {
  return (
    <View className="expert-review__field">
      <Text className="expert-review__label">{label}</Text>
      <View className="expert-review__number-row">
        <Text className="expert-review__number" userSelect>
          {value || '未填写'}
        </Text>
        {value && (
          <Button
            size="small"
            className="expert-review__copy"
            aria-label={`复制${label}`}
            onClick={() => void copy(value, label)}
          >
            复制
          </Button>
        )}
      </View>
    </View>
  )
}

type Photo = OperatorExpertApplication['photos'][number]

function PhotoThumb({
  photo,
  onReady,
  onOpen,
}: {
  photo: Photo
  onReady: (id: string, src: string) => void
  onOpen: (src: string) => void
}) {
  const image = useAuthorisedImage(photo.path)
  const src = image.status === 'ready' ? image.src : null
  useEffect(() => {
    if (src) onReady(photo.id, src)
  }, [onReady, photo.id, src])
  return (
    <View className="expert-review__photo">
      {src ? (
        <View role="button" aria-label={`查看大图：${photo.kindLabel}`} onClick={() => onOpen(src)}>
          <Image className="expert-review__image" src={src} mode="aspectFit" />
        </View>
      ) : (
        <View className="expert-review__image expert-review__image--empty">
          <Text>{image.status === 'failed' ? '加载失败' : '加载中'}</Text>
        </View>
      )}
      <Text className="expert-review__photo-label">{photo.kindLabel}</Text>
    </View>
  )
}

/** The photos, each fetched with the token; a tap opens it full screen (previewImage) among the rest. */
function Photos({ photos }: { photos: Photo[] }) {
  // Object URLs by photo id, as they arrive: previewImage swipes through those loaded.
  const loaded = useRef(new Map<string, string>())
  const open = (current: string) => {
    const urls = photos
      .map((photo) => loaded.current.get(photo.id))
      .filter((url): url is string => !!url)
    void Taro.previewImage({ current, urls: urls.length ? urls : [current] }).catch(() => undefined)
  }
  if (photos.length === 0) return <Text className="operator__meta">没有照片</Text>
  return (
    <View className="expert-review__photos">
      {photos.map((photo) => (
        <PhotoThumb
          key={photo.id}
          photo={photo}
          onReady={(id, src) => loaded.current.set(id, src)}
          onOpen={open}
        />
      ))}
      <Text className="expert-review__photo-tip">点按照片查看大图</Text>
    </View>
  )
}

/** The hospital is still a request: where to settle it, and why 通过 waits for it. */
function HospitalWaits({
  request,
}: {
  request: NonNullable<OperatorExpertApplication['hospitalRequest']>
}) {
  return (
    <View className="operator__row expert-review__waits" role="note">
      <Text className="operator__form-title">
        医院待添加：{request.name}（{request.province}·{request.city}）
      </Text>
      <Text className="operator__text">
        申请人找不到自己的医院，提交了添加申请。请先在「医院申请」中添加为目录中的医院（或不予添加），医院添加后才能通过认证。
      </Text>
      <Button
        size="small"
        type="primary"
        className="expert-review__inline-button"
        onClick={() => void navigate('operator', { tab: 'hospitalRequests' })}
      >
        去处理医院申请
      </Button>
    </View>
  )
}

function Decision({ review, hospitalWaits }: { review: ExpertReview; hospitalWaits: boolean }) {
  const [reason, setReason] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const reject = async () => {
    // Said beside the box (role=alert), not in a toast over the page as well.
    const found = rejectReasonProblem(reason)
    setProblem(found)
    if (found) return
    if (await review.reject(reason)) {
      setReason('')
      scrollToTop()
    }
  }
  return (
    <View className="operator__form expert-review__decision">
      <Text className="operator__form-title">审核结论</Text>
      {hospitalWaits && (
        <Text className="operator__hint">医院尚未添加，通过认证要等医院申请处理后才能进行。</Text>
      )}
      <Button
        type="primary"
        block
        disabled={review.busy}
        onClick={() =>
          void review.approve().then((done) => {
            if (done) scrollToTop()
          })
        }
      >
        通过认证
      </Button>
      <Text className="expert-review__label">不符合时驳回，申请人修改后可重新提交：</Text>
      <ReasonBox
        value={reason}
        placeholder="驳回原因（必填，申请人会在我的消息里看到，请写明需要修改什么）"
        max={REJECT_REASON_MAX}
        label="驳回原因"
        problem={problem}
        onChange={(value) => {
          setReason(value)
          if (problem) setProblem(null)
        }}
      />
      <Button block disabled={review.busy} onClick={() => void reject()}>
        驳回
      </Button>
    </View>
  )
}

function Outcome({ application }: { application: OperatorExpertApplication }) {
  if (application.status === 'approved') {
    return (
      <View className="expert-review__outcome expert-review__outcome--approved" role="status">
        <Text>已通过认证（{time(application.decidedAt)}）</Text>
      </View>
    )
  }
  if (application.status === 'rejected') {
    return (
      <View className="expert-review__outcome expert-review__outcome--rejected" role="status">
        <Text>已驳回（{time(application.decidedAt)}）</Text>
        {application.rejectReason && <Text>驳回原因：{application.rejectReason}</Text>}
      </View>
    )
  }
  if (application.status === 'withdrawn') {
    return (
      <View className="expert-review__outcome" role="status">
        <Text>申请人已撤回申请</Text>
      </View>
    )
  }
  if (application.status === 'draft') {
    return (
      <View className="expert-review__outcome" role="status">
        <Text>申请人正在修改，重新提交后才能审核</Text>
      </View>
    )
  }
  return null
}

/** One application: its fields beside its photos, the registry step, then 通过 or 驳回. */
export function ExpertApplicationView({ review }: { review: ExpertReview }) {
  const { application, conflict } = review
  // Another operator decided first: the page shows why, at its top, with the application as it is.
  useEffect(() => {
    if (conflict) scrollToTop()
  }, [conflict])
  if (application.status === 'error') {
    return <PageState status="error" message={application.message} onRetry={application.reload} />
  }
  if (application.status === 'loading') return <PageState status="loading" />
  const item = application.data
  const waiting =
    item.hospitalId === null && item.hospitalRequest?.status === 'pending'
      ? item.hospitalRequest
      : null
  return (
    <View className="operator expert-review">
      {conflict && (
        <View className="expert-review__conflict" role="alert">
          <Text>{conflict}</Text>
        </View>
      )}
      <View className="operator__row">
        <View className="expert-queue__head">
          <Text className="expert-review__name">{item.certifiedName ?? '（未绑定身份证）'}</Text>
          <Text className={`expert-status expert-status--${item.status}`}>{item.statusLabel}</Text>
        </View>
        <Text className="operator__meta">
          姓名以申请人绑定的身份证为准
          {item.mobileMasked ? ` · 手机 ${item.mobileMasked}` : ''}
        </Text>
        <Text className="operator__meta">
          提交于 {time(item.submittedAt)}
          {item.decidedAt ? ` · 处理于 ${time(item.decidedAt)}` : ''}
        </Text>
        <Outcome application={item} />
      </View>
      {item.status === 'pending' && waiting && <HospitalWaits request={waiting} />}
      <View className="operator__row">
        <View className="expert-review__split">
          <View className="expert-review__fields">
            <Field
              label="医院"
              value={
                item.hospitalName ??
                (item.hospitalRequest
                  ? `${item.hospitalRequest.name}（${item.hospitalRequest.statusLabel}）`
                  : null)
              }
            />
            <Field label="科室" value={item.department} />
            <Field label="职称" value={item.titleLabel} />
            <Field label="执业类别" value={item.practiceCategoryLabel} />
            <Field label="执业范围" value={item.practiceScope} />
          </View>
          <Photos photos={item.photos} />
        </View>
        {/* Full width: a 27-digit number stays on one line on a phone. */}
        <NumberField label="医师执业证书编码" value={item.practiceCertificateNo} />
        <NumberField label="医师资格证书编码" value={item.qualificationCertificateNo} />
      </View>
      <View className="operator__row">
        <Field label="擅长方向" value={item.specialities.join('、')} />
        <Field label="个人简介" value={item.introduction} />
      </View>
      {item.status === 'pending' && (
        <>
          <View className="operator__row expert-review__step" role="note">
            <Text className="operator__form-title">核对步骤（运营人员自行完成）</Text>
            <Text className="operator__text">{REGISTRY_STEP}</Text>
            <Text className="operator__meta">
              该网站没有可调用的接口，请在电脑或手机浏览器中打开查询，确认照片与填写内容一致后再通过。
            </Text>
            <Button
              size="small"
              className="expert-review__inline-button"
              onClick={() => void copy(REGISTRY_URL, '查询网址')}
            >
              复制查询网址
            </Button>
          </View>
          <Decision review={review} hospitalWaits={waiting !== null} />
        </>
      )}
      {item.status !== 'pending' && (
        <View className="operator__toolbar">
          <Button size="small" onClick={() => void back('user')}>
            返回审核队列
          </Button>
        </View>
      )}
    </View>
  )
}

/** The page's content for one application id. */
export function ExpertApplicationReview({ id }: { id: string }) {
  return <ExpertApplicationView review={useExpertReview(id)} />
}
