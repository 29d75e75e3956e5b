import { SelectHospitalView } from '../../features/experts/certification/components/select-hospital-view'
import {
  handHospitalBack,
  useSelectHospital,
} from '../../features/experts/certification/hooks/use-select-hospital'
import { back } from '../../services/navigate'

/**
 * 选择医院 for 专家认证: the chosen hospital goes back to the form (services/experts
 * `onExpertHospitalPicked`), which then offers that hospital's departments; so does a request
 * sent from 找不到我的医院？ in the hospital's place. The directory is
 * public, so the page needs no sign-in.
 */
export default function SelectHospitalPage() {
  const model = useSelectHospital()
  return (
    <SelectHospitalView
      model={model}
      onPick={(hospital) => {
        handHospitalBack({ kind: 'hospital', hospital })
        void back()
      }}
      onRequested={(request) => {
        handHospitalBack({ kind: 'request', request })
        void back()
      }}
    />
  )
}
