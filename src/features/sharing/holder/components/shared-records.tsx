import { Text, View } from '@tarojs/components'
import type { GrantRecord, ReceivedGrant } from '@/services/shares'
import { ShareBanner } from './share-banner'
import './shared-records.scss'

export interface SharedRecordsProps {
  grant: ReceivedGrant
  onOpen: (record: GrantRecord) => void
}

function RecordCard({ record, onOpen }: { record: GrantRecord; onOpen: () => void }) {
  const facts = [record.hospitalName, record.studyDate, record.modalities.join(' / ')]
    .filter((fact) => fact && fact !== '')
    .join(' · ')
  return (
    <View className="shared-records__item" onClick={onOpen}>
      <View className="shared-records__head">
        <Text className={`shared-records__kind shared-records__kind--${record.kind}`}>
          {record.kind === 'exam' ? '影像' : '报告'}
        </Text>
        <Text className="shared-records__title">{record.title || '未命名检查'}</Text>
        {record.private && <Text className="shared-records__private">隐私</Text>}
      </View>
      {facts !== '' && <Text className="shared-records__facts">{facts}</Text>}
      <Text className="shared-records__arrow">查看 ›</Text>
    </View>
  )
}

/** What a grant lets its holder see, under who shared it and until when. */
export function SharedRecords({ grant, onOpen }: SharedRecordsProps) {
  return (
    <View className="shared-records">
      <ShareBanner grant={grant} />
      {grant.records.length === 0 ? (
        <Text className="shared-records__empty">分享的记录已被删除</Text>
      ) : (
        grant.records.map((record) => (
          <RecordCard
            key={`${record.kind}:${record.id}`}
            record={record}
            onOpen={() => onOpen(record)}
          />
        ))
      )}
    </View>
  )
}
