/** README.txt at the top of the archive: what each folder holds, in Chinese. */
export function ARCHIVE_README(withPdfs: boolean): string {
  return `医影通 · 我的数据（导出副本）
================================

这是您在医影通中的个人信息副本（依据《个人信息保护法》第四十五条）。请妥善保管：其中含有身份证号、
检查影像和报告等敏感个人信息。

目录说明
--------
DICOMDIR                 影像目录文件（DICOM 标准 PS3.10）。用任何 DICOM 看图软件打开本文件夹或
                         本文件，即可列出全部检查并查看影像。
DICOM/                   每次检查的原始 DICOM 文件（与医院或您上传时收到的完全一致），按
                         患者 PA…/检查 ST…/序列 SE…/图像 IM… 分层存放。
fhir/bundle.json         全部检查与报告的 FHIR R4 数据（一个 Bundle：Patient 患者、ImagingStudy
                         检查、DiagnosticReport 报告），可导入其他支持 FHIR 的医院系统或应用。
reports/                 每份报告的 PDF 版本，便于阅读和打印（医院报告，以及您为上传的影像填写的
                         个人报告）。${withPdfs ? '' : '\n                         （本次导出时服务器未配置中文字体，未能生成 PDF，报告内容请见 fhir/bundle.json。）'}
uploads/photos/          您上传的报告照片。
profile/profile.json     个人资料：昵称、手机号、身份证信息、亲情卡关系；profile/ 下另有头像。
consents/consents.json   您同意过的协议与授权（类型、版本、时间）。
consultations/           每次专家咨询：consultation.json（病情描述、对话消息、状态记录）、
                         pictures/（对话和申请中的图片）、opinion-*.pdf（专家签署的会诊报告）。
grants/grants.json       您的授权记录（分享给谁、哪些检查、何时到期或撤销）以及谁看过（谁看过记录）。
messages/messages.json   我的消息。
favourites/favourites.json  收藏。
points/points.json       积分余额与明细。

如何使用
--------
- 看影像：用 DICOM 看图软件（如 RadiAnt、Horos、Weasis、MicroDicom）打开 DICOMDIR。
- 换一个医影通账号：在新账号中选择“导入数据”，上传本压缩包，影像与报告会出现在新账号中。
- JSON 文件为 UTF-8 编码，可用任意文本编辑器打开。

本副本生成后仅通过短信发送一次性下载链接到账号本人的手机，链接 24 小时内有效、只能下载一次。
`
}
