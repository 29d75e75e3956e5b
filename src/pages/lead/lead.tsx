import { LeadView } from '../../features/settings/components/lead-view'

export default function LeadPage() {
  return <LeadView />
}
