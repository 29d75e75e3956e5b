import { Text, View } from '@tarojs/components'
import { Button, Input, Popup } from '@nutui/nutui-react-taro'
import { useState, type ReactNode } from 'react'
import {
  HOSPITAL_REQUEST_ADDRESS_MAX,
  HOSPITAL_REQUEST_NAME_MAX,
  HOSPITAL_REQUEST_PLACE_MAX,
} from '@contract/main/hospital-requests'
import type { HospitalRequest } from '@/services/experts'
import {
  type HospitalRequestField,
  type HospitalRequestForm,
  requestValuesFrom,
  useHospitalRequest,
} from '../hooks/use-hospital-request'
import type { Region } from '../hooks/use-select-hospital'

function Field({
  label,
  required,
  error,
  children,
}: {
  label: string
  required?: boolean
  error?: string
  children: ReactNode
}) {
  return (
    <View className={`missing-hospital__field${error ? ' missing-hospital__field--error' : ''}`}>
      <View className="missing-hospital__label-line">
        <Text className="missing-hospital__label">{label}</Text>
        <Text className="missing-hospital__need">{required ? '必填' : '选填'}</Text>
      </View>
      {children}
      {error && (
        <View className="missing-hospital__error" role="alert">
          {error}
        </View>
      )}
    </View>
  )
}

function TextField({
  form,
  name,
  label,
  placeholder,
  maxLength,
  required = false,
}: {
  form: HospitalRequestForm
  name: HospitalRequestField
  label: string
  placeholder: string
  maxLength: number
  required?: boolean
}) {
  return (
    <Field label={label} required={required} error={form.problems[name]}>
      <Input
        className="missing-hospital__input"
        value={form.values[name]}
        placeholder={placeholder}
        maxLength={maxLength}
        clearable
        aria-label={label}
        onChange={(value) => form.set(name, value)}
        onBlur={() => form.blur(name)}
      />
    </Field>
  )
}

function RequestForm({
  region,
  name,
  onRequested,
  onListed,
  onCancel,
}: {
  region: Region | null
  name: string
  onRequested: (request: HospitalRequest) => void
  onListed: (name: string) => void
  onCancel: () => void
}) {
  const form = useHospitalRequest({
    initial: requestValuesFrom(region, name),
    onRequested,
    onListed,
  })
  return (
    <View className="missing-hospital__form" aria-label="申请添加医院">
      <Text className="missing-hospital__intro">
        运营人员核实后把医院加入目录，您的认证申请会自动更新为该医院。您可以先用它提交认证。
      </Text>
      <TextField
        form={form}
        name="name"
        label="医院全称"
        placeholder="与医院公章或执业证书一致"
        maxLength={HOSPITAL_REQUEST_NAME_MAX}
        required
      />
      <View className="missing-hospital__pair">
        <TextField
          form={form}
          name="province"
          label="省份"
          placeholder="如 广东省"
          maxLength={HOSPITAL_REQUEST_PLACE_MAX}
          required
        />
        <TextField
          form={form}
          name="city"
          label="城市"
          placeholder="如 广州市"
          maxLength={HOSPITAL_REQUEST_PLACE_MAX}
          required
        />
      </View>
      <TextField
        form={form}
        name="address"
        label="地址"
        placeholder="街道门牌，便于核实"
        maxLength={HOSPITAL_REQUEST_ADDRESS_MAX}
      />
      {form.error && (
        <View className="missing-hospital__error missing-hospital__error--form" role="alert">
          {form.error}
        </View>
      )}
      <View className="missing-hospital__actions">
        <Button className="missing-hospital__button" disabled={form.sending} onClick={onCancel}>
          取消
        </Button>
        <Button
          className="missing-hospital__button"
          type="primary"
          loading={form.sending}
          disabled={form.sending}
          onClick={() => void form.submit()}
        >
          提交申请
        </Button>
      </View>
    </View>
  )
}

export interface MissingHospitalProps {
  /** The cascade's choice, to start the place from. */
  region: Region | null
  /** What the person searched for: likely the name they are missing. */
  keyword: string
  /** The request goes back to the certification form, as a picked hospital does. */
  onRequested: (request: HospitalRequest) => void
  /** The server says the name is listed: the picker searches for it. */
  onListed: (name: string) => void
}

/** 找不到我的医院？ A small form asks for the hospital to be added (contract/main/hospital-requests.ts). */
export function MissingHospital({ region, keyword, onRequested, onListed }: MissingHospitalProps) {
  const [open, setOpen] = useState(false)
  return (
    <View className="missing-hospital">
      <Text className="missing-hospital__title">找不到我的医院？</Text>
      <Text className="missing-hospital__text">
        填写医院全称和所在城市申请添加，运营人员核实后加入医院目录，并通过「我的消息」通知您。
      </Text>
      <Button
        className="missing-hospital__open"
        size="small"
        type="primary"
        fill="outline"
        onClick={() => setOpen(true)}
      >
        申请添加医院
      </Button>
      <Popup
        visible={open}
        position="bottom"
        round
        title="申请添加医院"
        closeable
        onClose={() => setOpen(false)}
      >
        {open && (
          <RequestForm
            region={region}
            name={keyword.trim()}
            onRequested={(request) => {
              setOpen(false)
              onRequested(request)
            }}
            onListed={(name) => {
              setOpen(false)
              onListed(name)
            }}
            onCancel={() => setOpen(false)}
          />
        )}
      </Popup>
    </View>
  )
}
