import { Text, View } from '@tarojs/components'
import type { ExpertApplication } from '@/services/experts'
import { HospitalRequestNote, hospitalRequestLine } from './hospital-request-state'
import { CertificatePhoto } from './photo-field'

function Row({ label, value }: { label: string; value: string | null }) {
  return (
    <View className="cert-summary__row">
      <Text className="cert-summary__label">{label}</Text>
      <Text className="cert-summary__value">{value || '—'}</Text>
    </View>
  )
}

export interface ApplicationSummaryProps {
  application: ExpertApplication
  /** 重新选择医院 after a declined hospital request, where the application may be changed. */
  onRepickHospital?: () => void
  /** Said instead, where it may not (待审核). */
  lockedNote?: string
}

/** An application as submitted, read-only: what the operator checks (photos shown to me only). */
export function ApplicationSummary({
  application,
  onRepickHospital,
  lockedNote,
}: ApplicationSummaryProps) {
  const request = application.hospitalRequest
  return (
    <View className="cert-card cert-summary">
      <Row label="医院" value={request ? hospitalRequestLine(request) : application.hospitalName} />
      {request && (
        <HospitalRequestNote
          request={request}
          onRepick={onRepickHospital}
          lockedNote={lockedNote}
          submitted={application.status === 'pending'}
        />
      )}
      <Row label="科室" value={application.department} />
      <Row label="职称" value={application.titleLabel} />
      <Row label="医师执业证书编码" value={application.practiceCertificateNo} />
      <Row label="医师资格证书编码" value={application.qualificationCertificateNo} />
      <Row label="执业类别" value={application.practiceCategoryLabel} />
      <Row label="执业范围" value={application.practiceScope} />
      <View className="cert-summary__row cert-summary__row--block">
        <Text className="cert-summary__label">擅长方向</Text>
        <View className="cert-summary__tags">
          {application.specialities.length === 0 ? (
            <Text className="cert-summary__value">—</Text>
          ) : (
            application.specialities.map((speciality) => (
              <Text key={speciality} className="cert-tag cert-tag--static">
                {speciality}
              </Text>
            ))
          )}
        </View>
      </View>
      <View className="cert-summary__row cert-summary__row--block">
        <Text className="cert-summary__label">个人简介</Text>
        <Text className="cert-summary__text">{application.introduction || '未填写'}</Text>
      </View>
      {application.photos.length > 0 && (
        <View className="cert-summary__row cert-summary__row--block">
          <Text className="cert-summary__label">证书照片（仅您和审核人员可见）</Text>
          <View className="cert-photo__list">
            {application.photos.map((photo) => (
              <View key={photo.id} className="cert-photo__item">
                <CertificatePhoto path={photo.path} label={photo.kindLabel} />
                <Text className="cert-photo__caption">{photo.kindLabel}</Text>
              </View>
            ))}
          </View>
        </View>
      )}
    </View>
  )
}
