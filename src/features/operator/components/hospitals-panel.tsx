import { useEffect, useState } from 'react'
import { Text, View } from '@tarojs/components'
import { Button, Input } from '@nutui/nutui-react-taro'
import { showToast } from '@/platform/ui'
import { navigate } from '@/services/navigate'
import { onPlaceChosen } from '@/services/place-pick'
import { operatorApi, type OperatorHospital } from '@/services/operator'
import { timeFormat } from '@/utils/time'
import { act, useHospitalKeys, useHospitals } from '../hooks/use-operator'

const FIELDS = [
  { key: 'name', placeholder: '医院名称（必填）', max: 100 },
  { key: 'level', placeholder: '等级（如 三级甲等）', max: 20 },
  { key: 'province', placeholder: '省份', max: 20 },
  { key: 'city', placeholder: '城市', max: 20 },
  { key: 'address', placeholder: '地址', max: 100 },
  { key: 'regionCode', placeholder: '地区代码（6 位，如 330106）', max: 6 },
  { key: 'regionName', placeholder: '地区名称（如 西湖区）', max: 30 },
  { key: 'latitude', placeholder: '纬度（高德/腾讯地图坐标，如 30.2741）', max: 12 },
  { key: 'longitude', placeholder: '经度（如 120.1551）', max: 12 },
] as const
type Draft = Record<(typeof FIELDS)[number]['key'], string>
const EMPTY: Draft = {
  name: '',
  level: '',
  province: '',
  city: '',
  address: '',
  regionCode: '',
  regionName: '',
  latitude: '',
  longitude: '',
}

function HospitalForm({
  editing,
  onDone,
}: {
  editing: OperatorHospital | null
  onDone: () => Promise<void>
}) {
  const [draft, setDraft] = useState<Draft>(() =>
    editing
      ? {
          name: editing.name,
          level: editing.level,
          province: editing.province,
          city: editing.city,
          address: editing.address,
          regionCode: editing.regionCode ?? '',
          regionName: editing.regionName ?? '',
          latitude: editing.latitude === null ? '' : String(editing.latitude),
          longitude: editing.longitude === null ? '' : String(editing.longitude),
        }
      : EMPTY,
  )
  // 选择位置 answers here: the address and coordinates fill the form.
  useEffect(
    () =>
      onPlaceChosen((place) =>
        setDraft((current) => ({
          ...current,
          address: place.address || current.address,
          latitude: place.latitude === null ? current.latitude : String(place.latitude),
          longitude: place.longitude === null ? current.longitude : String(place.longitude),
        })),
      ),
    [],
  )
  const save = async () => {
    if (!draft.name.trim()) return showToast('请填写医院名称')
    const { latitude, longitude, ...text } = draft
    const saved = await act(
      () =>
        operatorApi.saveHospital({
          ...text,
          ...(latitude.trim() ? { latitude: Number(latitude) } : {}),
          ...(longitude.trim() ? { longitude: Number(longitude) } : {}),
          ...(editing ? { id: editing.id } : {}),
        }),
      '已保存',
      onDone,
    )
    if (saved && !editing) setDraft(EMPTY)
  }
  return (
    <View className="operator__form">
      <Text className="operator__form-title">{editing ? `修改：${editing.name}` : '新增医院'}</Text>
      {FIELDS.map((field) => (
        <Input
          key={field.key}
          className="operator__input"
          value={draft[field.key]}
          placeholder={field.placeholder}
          maxLength={field.max}
          onChange={(value) => setDraft((current) => ({ ...current, [field.key]: value }))}
        />
      ))}
      <Button
        block
        onClick={() =>
          void navigate('chooseLocation', { name: draft.name, address: draft.address })
        }
      >
        选择位置（填入地址和坐标）
      </Button>
      <Button type="primary" block onClick={() => void save()}>
        保存
      </Button>
    </View>
  )
}

function HospitalKeys({
  hospital,
  onChange,
}: {
  hospital: OperatorHospital
  onChange: () => Promise<void>
}) {
  const { keys, issued, issue, revoke } = useHospitalKeys(hospital.id)
  return (
    <View className="operator__keys">
      {issued && (
        <View className="operator__issued" role="status">
          <Text>新密钥（只显示这一次，请立即交给医院的信息科妥善保存）：</Text>
          <Text className="operator__key" userSelect>
            {issued}
          </Text>
        </View>
      )}
      {keys.status === 'error' && <Text className="operator__meta">{keys.message}</Text>}
      {(keys.status === 'ready' ? keys.data : []).map((key) => (
        <View key={key.id} className="operator__row operator__row--inline">
          <View className="operator__grow">
            <Text className="operator__title">{key.prefix}…</Text>
            <Text className="operator__meta">
              签发 {timeFormat(key.createdAt, 'yyyy-mm-dd')} · 最近使用{' '}
              {key.lastUsedAt ? timeFormat(key.lastUsedAt, 'yyyy-mm-dd hh:MM') : '未使用'}
              {key.revokedAt ? ` · 已吊销 ${timeFormat(key.revokedAt, 'yyyy-mm-dd')}` : ''}
            </Text>
          </View>
          {!key.revokedAt && (
            <Button size="small" onClick={() => void revoke(key.id).then(onChange)}>
              吊销
            </Button>
          )}
        </View>
      ))}
      <Button size="small" type="primary" onClick={() => void issue().then(onChange)}>
        签发新密钥
      </Button>
    </View>
  )
}

/** Hospitals (one list with the sign-on directory) and the keys their systems push records with. */
export function HospitalsPanel() {
  const hospitals = useHospitals()
  const [editing, setEditing] = useState<OperatorHospital | null>(null)
  const [open, setOpen] = useState<string | null>(null)
  return (
    <View>
      <HospitalForm
        key={editing?.id ?? 'new'}
        editing={editing}
        onDone={async () => {
          setEditing(null)
          await hospitals.reload()
        }}
      />
      {hospitals.status === 'error' && <Text className="operator__meta">{hospitals.message}</Text>}
      {(hospitals.status === 'ready' ? hospitals.data : []).map((hospital) => (
        <View key={hospital.id} className="operator__row">
          <Text className="operator__title">
            {hospital.name}
            {hospital.demo ? '（演示）' : ''}
          </Text>
          <Text className="operator__meta">
            {[hospital.level, hospital.city, hospital.regionName].filter(Boolean).join(' · ') ||
              '未填写等级和地区'}{' '}
            · 有效密钥 {hospital.activeKeys}
          </Text>
          <View className="operator__actions">
            <Button size="small" onClick={() => setEditing(hospital)}>
              修改
            </Button>
            <Button
              size="small"
              onClick={() => setOpen((current) => (current === hospital.id ? null : hospital.id))}
            >
              {open === hospital.id ? '收起密钥' : '接口密钥'}
            </Button>
          </View>
          {open === hospital.id && <HospitalKeys hospital={hospital} onChange={hospitals.reload} />}
        </View>
      ))}
    </View>
  )
}
