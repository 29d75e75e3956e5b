import Taro from '@tarojs/taro'
import { isRecord } from './query'
import type { DownloadedFile, Transport } from './types'

function toHeaderRecord(header: unknown): Record<string, string> {
  const result: Record<string, string> = {}
  if (!isRecord(header)) return result
  for (const [key, value] of Object.entries(header)) {
    if (typeof value === 'string') result[key] = value
  }
  return result
}

/** Taro's APIs as a Transport: the only place in the app that calls them. */
export const taroTransport: Transport = {
  request: async (options) => {
    const response = await Taro.request<unknown>({
      url: options.url,
      method: options.method,
      header: options.header,
      timeout: options.timeout,
      // Raw bytes must not go through the JSON parse ('其他' in WeChat's terms).
      dataType: options.responseType === 'arraybuffer' ? '其他' : 'json',
      ...(options.responseType ? { responseType: options.responseType } : {}),
      ...(options.data !== undefined ? { data: options.data } : {}),
    })
    return {
      statusCode: response.statusCode,
      data: response.data,
      header: toHeaderRecord(response.header),
    }
  },
  upload: async (options) => {
    const response = await Taro.uploadFile({
      url: options.url,
      filePath: options.filePath,
      name: options.name,
      header: options.header,
      timeout: options.timeout,
      ...(options.formData ? { formData: options.formData } : {}),
    })
    return { statusCode: response.statusCode, data: response.data, header: {} }
  },
  download: async (options) => {
    const response = await Taro.downloadFile({
      url: options.url,
      header: options.header,
      timeout: options.timeout,
      ...(options.filePath ? { filePath: options.filePath } : {}),
    })
    const file: DownloadedFile = { tempFilePath: response.tempFilePath }
    if (response.filePath) file.filePath = response.filePath
    return { statusCode: response.statusCode, data: file, header: {} }
  },
}
