/** Words of the app frame: titles, request and session messages (spec sections 8 and 9). */
export const app = {
  siteTitle: '后台管理系统',
  sidebarTitle: '管理系统',
  loading: '加载中…',
} as const;

export const ui = {
  ok: '确定',
  cancel: '取消',
  save: '保存',
  close: '关闭',
  back: '返回',
  retry: '重试',
  copy: '复制',
  copied: '已复制：{{text}}',
  search: '搜索',
  none: '无',
  yes: '是',
  no: '否',
} as const;

export const request = {
  logoutTitle: '登出提醒',
  logoutMessage: '登录已过期，请重新登录？',
  relogin: '重新登录',
  cancel: '取消',
  genericError: '出错了，请稍后再试',
  requestError: '请求错误',
} as const;

export const session = {
  verificationFailed: '验证失败，请重新登录。',
  rolesRequired: '用户信息：角色必须是非空数组！',
} as const;

export const area = {
  switch: '区域切换',
  placeholder: '请选择区域',
  noArea: '当前用户没有可操作的区域，请联系管理员',
  queryFailed: '查询区域信息失败',
  switched: '已切换到 {{name}}',
} as const;

export const message = {
  switchLanguageSuccess: '切换语言成功',
  switchSizeSuccess: '切换大小成功',
  fullscreenUnsupported: '您的浏览器不支持全屏',
} as const;
