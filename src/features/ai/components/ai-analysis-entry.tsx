import { Text, View } from '@tarojs/components'
import { Button, Dialog } from '@nutui/nutui-react-taro'
import { useState } from 'react'
import type { AiAnalysisStatus, AiAnalysisView } from '@/services/ai'
import { useAiAnalysis } from '../hooks/use-ai-analysis'
import './ai-analysis-entry.scss'

export interface AiAnalysisEntryProps {
  examId: string
  /** The exam's modalities: the entry shows only for CT (what the analysis takes). */
  modalities: readonly string[]
}

const TONE: Record<AiAnalysisStatus['state'], string> = {
  queued: 'wait',
  running: 'wait',
  done: 'done',
  failed: 'failed',
}

function StateLine({ analysis }: { analysis: AiAnalysisStatus }) {
  return (
    <View className="ai-analysis__state">
      <Text className={`ai-analysis__tag ai-analysis__tag--${TONE[analysis.state]}`}>
        {analysis.state === 'failed' ? '分析失败' : analysis.stateLabel}
      </Text>
      <Text className="ai-analysis__line">
        {analysis.state === 'failed' ? `原因：${analysis.message}` : analysis.message}
      </Text>
    </View>
  )
}

/** What the confirm says, in plain words: a draft for the expert, never a diagnosis on its own. */
function ConfirmText({ view }: { view: AiAnalysisView }) {
  const provider = view.service.provider
  return (
    <View className="ai-analysis__confirm">
      <Text className="ai-analysis__confirm-line">
        {`将由「${provider?.name ?? 'AI 分析服务'}」对这次 CT 影像进行计算分析（${provider?.notice ?? ''}）。`}
      </Text>
      <Text className="ai-analysis__confirm-line">
        分析结果不是诊断，也不会单独展示给您：它只作为草稿，供您在影像会诊中选择的专家参考。
      </Text>
      <Text className="ai-analysis__confirm-line">
        专家审阅、修改并签署会诊意见后，您才会在会诊报告中看到，报告会注明哪些内容来自 AI 草稿。
      </Text>
    </View>
  )
}

/** 申请AI分析 on 影像详情 (CT only): a confirm that explains, then the request's state. */
export function AiAnalysisEntry({ examId, modalities }: AiAnalysisEntryProps) {
  const isCt = modalities.some((m) => m.toUpperCase() === 'CT')
  if (!isCt) return null
  return <AiAnalysisCard examId={examId} />
}

function AiAnalysisCard({ examId }: { examId: string }) {
  const { view, applying, apply } = useAiAnalysis(examId)
  const [confirming, setConfirming] = useState(false)
  if (view.status === 'loading') return null
  if (view.status === 'error') {
    return (
      <View className="ai-analysis">
        <Text className="ai-analysis__heading">AI 分析</Text>
        <Text className="ai-analysis__muted" onClick={() => void view.reload()}>
          {`${view.message}，点击重试`}
        </Text>
      </View>
    )
  }
  const data = view.data
  const analysis = data.analysis
  // A request that failed may be made again; one queued, running or done is the exam's request.
  const canApply =
    data.service.configured && data.applicable && (!analysis || analysis.state === 'failed')
  return (
    <View className="ai-analysis">
      <View className="ai-analysis__head">
        <Text className="ai-analysis__heading">AI 分析</Text>
        {data.service.provider && (
          <Text className="ai-analysis__notice">{data.service.provider.notice}</Text>
        )}
      </View>
      {!data.service.configured && !analysis && (
        <Text className="ai-analysis__muted">{data.service.message}</Text>
      )}
      {analysis && <StateLine analysis={analysis} />}
      {data.service.configured && !data.applicable && !analysis && data.notApplicable && (
        <Text className="ai-analysis__muted">{data.notApplicable}</Text>
      )}
      {canApply && (
        <>
          {!analysis && (
            <Text className="ai-analysis__muted">
              AI 分析结果只作为会诊专家撰写意见的草稿，不会单独展示给您。
            </Text>
          )}
          <Button
            className="ai-analysis__button"
            type="primary"
            fill="outline"
            size="small"
            loading={applying}
            disabled={applying}
            onClick={() => setConfirming(true)}
          >
            {analysis ? '重新申请AI分析' : '申请AI分析'}
          </Button>
        </>
      )}
      <Dialog
        visible={confirming}
        title="申请AI分析"
        confirmText="确认申请"
        cancelText="取消"
        content={<ConfirmText view={data} />}
        onConfirm={() => {
          setConfirming(false)
          void apply()
        }}
        onCancel={() => setConfirming(false)}
      />
    </View>
  )
}
