import { View } from '@tarojs/components'
import { DataCenterView } from '../../features/hospitals/components/data-center-view'
import { HospitalPickerView } from '../../features/records/components/hospital-picker-view'
import { useMyHospitals } from '../../features/hospitals/hooks/use-my-hospitals'
import { useHospitalPicker } from '../../features/records/hooks/use-hospital-picker'
import { showToast } from '../../platform/ui'
import { back, navigate, routeUrl } from '../../services/navigate'
import { useAppStore } from '../../stores/app-store'
import { useHospitalChoice } from '../../stores/hospital-store'

/**
 * 数据切换中心: choose which hospital's records 我的影像 and 我的报告 show (remembered; 全部 by
 * default) from my hospitals, or any hospital by region.
 */
export default function HospitalListPage() {
  const signedIn = useAppStore((state) => state.hasLogin)
  const userId = useAppStore((state) => state.profile?.id ?? null)
  const chosen = useHospitalChoice((state) => state.chosen)
  const current = chosen && chosen.userId === userId ? chosen : null
  const mine = useMyHospitals(signedIn)
  const picker = useHospitalPicker(signedIn)

  const choose = (hospital: { id: string; name: string } | null) => {
    if (!signedIn || !userId) {
      void navigate('login', { redirect: routeUrl('hospitalList') })
      return
    }
    useHospitalChoice
      .getState()
      .choose(hospital ? { userId, hospitalId: hospital.id, name: hospital.name } : null)
    showToast(hospital ? `已切换到 ${hospital.name}` : '已切换到全部医院')
    setTimeout(() => void back(), 600)
  }

  return (
    <View>
      <DataCenterView
        current={current}
        mine={mine}
        signedIn={signedIn}
        onChoose={choose}
        onNavigate={(hospital) =>
          void navigate('openLocation', {
            name: hospital.name,
            address: hospital.address,
            ...(hospital.latitude != null && hospital.longitude != null
              ? { lat: hospital.latitude, lng: hospital.longitude }
              : {}),
          })
        }
      />
      <HospitalPickerView picker={picker} hint="点击医院，只看该院的影像和报告" onPick={choose} />
    </View>
  )
}
