import { useParams } from '@/hooks/use-params'
import { HospitalPickerView } from '../../features/records/components/hospital-picker-view'
import {
  handHospitalBack,
  useHospitalPicker,
} from '../../features/records/hooks/use-hospital-picker'
import { back, navigate } from '../../services/navigate'
import { useAppStore } from '../../stores/app-store'

/**
 * 选择地区或医院. Opened with `pick=1` (by 影像查询) it hands the chosen hospital back to the opener
 * (services/records `onHospitalPicked`) and goes back; opened on its own it shows my exams in that
 * hospital (院内查询). Hospitals are public, so it works signed out too (without a default region).
 */
export default function PersonalImageHospitalPage() {
  const { pick } = useParams()
  const picking = pick === '1'
  const signedIn = useAppStore((state) => state.hasLogin)
  const picker = useHospitalPicker(signedIn)
  return (
    <HospitalPickerView
      picker={picker}
      hint={picking ? '点击医院即选定' : '点击医院查看我在该院的检查'}
      onPick={(hospital) => {
        if (picking) {
          handHospitalBack(hospital)
          void back()
          return
        }
        void navigate('hospitalExams', { hospitalId: hospital.id, name: hospital.name })
      }}
    />
  )
}
