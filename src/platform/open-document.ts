import Taro from '@tarojs/taro'

/**
 * Opens a downloaded document in the mini-program's viewer, with its menu (转发, 保存到手机) shown:
 * how a patient keeps a PDF there. H5 saves files instead (save-file.ts).
 */
export async function openDocument(filePath: string, fileType: 'pdf'): Promise<void> {
  await Taro.openDocument({ filePath, fileType, showMenu: true })
}
