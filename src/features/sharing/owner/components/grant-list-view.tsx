import { Text, View } from '@tarojs/components'
import { useState } from 'react'
import { PageState } from '@/components/page-state'
import { describeError } from '@/services/api'
import type { Grant } from '@/services/grants'
import { useGrantList, type GrantListFilter } from '../hooks/use-grant-list'
import { GrantCard } from './grant-card'
import { GrantViewsList } from './grant-views-list'
import { GrantViewsSheet } from './grant-views-sheet'
import './grant-list-view.scss'

/**
 * 授权记录: every grant, newest first (ended ones stay, with their status), 撤销, and each grant's
 * view log. Narrowed to one exam it starts with that exam's 谁看过.
 */
export function GrantListView(filter: GrantListFilter) {
  const { list, cancelling, cancel } = useGrantList(filter)
  const [opened, setOpened] = useState<Grant | null>(null)

  if (list.status === 'loading') return <PageState status="loading" />
  if (list.status === 'error') {
    return (
      <PageState
        status="error"
        message={describeError(list.error, '加载失败，请检查网络后重试')}
        onRetry={list.reload}
      />
    )
  }
  const { grants, recordViews } = list.data
  return (
    <View className="grant-list">
      {recordViews && (
        <View className="grant-list__section">
          <Text className="grant-list__heading">谁看过</Text>
          <GrantViewsList views={recordViews} empty="还没有人通过授权查看过这次检查" />
        </View>
      )}
      {filter.examId && <Text className="grant-list__heading">这次检查的授权</Text>}
      {grants.length === 0 ? (
        <PageState
          status="empty"
          message={
            filter.examId
              ? '这次检查还没有授权给任何人'
              : '还没有授权记录，可在影像或报告详情中点「授权」'
          }
        />
      ) : (
        grants.map((grant) => (
          <GrantCard
            key={grant.id}
            grant={grant}
            showPerson={Boolean(filter.personId)}
            cancelling={cancelling === grant.id}
            onCancel={(one) => void cancel(one)}
            onOpenViews={setOpened}
          />
        ))
      )}
      {grants.length > 0 && <Text className="grant-list__end">-- END --</Text>}
      <GrantViewsSheet grant={opened} onClose={() => setOpened(null)} />
    </View>
  )
}
