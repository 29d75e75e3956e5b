import { SelectHospitalView } from '../../features/experts/certification/components/select-hospital-view'
import {
  handHospitalBack,
  useSelectHospital,
} from '../../features/experts/certification/hooks/use-select-hospital'
import { back } from '../../services/navigate'

/**
 * 选择医院 for 专家认证: the chosen hospital goes back to the form (services/experts
 * `onExpertHospitalPicked`), which then offers that hospital's departments. The directory is
 * public, so the page needs no sign-in.
 */
export default function SelectHospitalPage() {
  const model = useSelectHospital()
  return (
    <SelectHospitalView
      model={model}
      onPick={(hospital) => {
        handHospitalBack(hospital)
        void back()
      }}
    />
  )
}
