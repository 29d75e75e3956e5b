import { Text, View } from '@tarojs/components'
import type { MyHospital } from '@/services/records'
import './data-center.scss'

export interface DataCenterViewProps {
  /** null: 全部. */
  current: { hospitalId: string; name: string } | null
  /** Hospitals with my records; null while loading or signed out. */
  mine: MyHospital[] | null
  signedIn: boolean
  onChoose: (hospital: { id: string; name: string } | null) => void
  /** 导航: the hospital on the map (/open-location). */
  onNavigate: (hospital: MyHospital) => void
}

/**
 * 数据切换中心, top part: which hospital's records the image and report pages show, 全部 first,
 * then the hospitals I have records from (with counts). All hospitals by region follow below.
 */
export function DataCenterView({
  current,
  mine,
  signedIn,
  onChoose,
  onNavigate,
}: DataCenterViewProps) {
  return (
    <View className="data-center">
      <View className="data-center__current">
        <Text className="data-center__current-label">当前查看</Text>
        <Text className="data-center__current-name">{current ? current.name : '全部医院'}</Text>
        <Text className="data-center__current-hint">我的影像、我的报告只显示所选医院的记录</Text>
      </View>
      <Text className="data-center__title">我的医院</Text>
      <View
        className={`data-center__row${current === null ? ' data-center__row--on' : ''}`}
        role="radio"
        aria-checked={current === null}
        onClick={() => onChoose(null)}
      >
        <Text className="data-center__name">全部医院</Text>
        <Text className="data-center__meta">显示所有医院的记录（默认）</Text>
      </View>
      {!signedIn ? (
        <Text className="data-center__empty">登录后显示您有检查记录的医院</Text>
      ) : mine === null ? (
        <Text className="data-center__empty">加载中 ...</Text>
      ) : mine.length === 0 ? (
        <Text className="data-center__empty">还没有医院的检查记录</Text>
      ) : (
        mine.map((hospital) => (
          <View
            key={hospital.id}
            className={`data-center__row${current?.hospitalId === hospital.id ? ' data-center__row--on' : ''}`}
            role="radio"
            aria-checked={current?.hospitalId === hospital.id}
            onClick={() => onChoose({ id: hospital.id, name: hospital.name })}
          >
            <Text className="data-center__name">{hospital.name}</Text>
            <Text className="data-center__meta">
              {hospital.examCount} 次检查 · {hospital.reportCount} 份报告
              {hospital.latestStudyDate ? ` · 最近 ${hospital.latestStudyDate}` : ''}
            </Text>
            {hospital.address && (
              <View
                className="data-center__navigate"
                role="button"
                aria-label={`导航到${hospital.name}`}
                onClick={(event) => {
                  // 导航 only: the row's own tap (switch to this hospital) is not meant.
                  event.stopPropagation()
                  onNavigate(hospital)
                }}
              >
                <Text className="data-center__address">{hospital.address}</Text>
                <Text className="data-center__navigate-text">导航</Text>
              </View>
            )}
          </View>
        ))
      )}
      <Text className="data-center__title">全部医院（按地区）</Text>
    </View>
  )
}
