/** Words of the pages the shell owns (business modules bring their own files). */
export const login = {
  title: '系统登录',
  username: '账号',
  password: '密码',
  logIn: '登录',
  showPassword: '显示密码',
  hidePassword: '隐藏密码',
  thirdparty: '第三方登录',
  thirdpartyTips: '第三方登录暂未实现，请使用账号和密码登录。',
  usernameRequired: '请输入账号',
  passwordRequired: '请输入密码',
  capsLock: '大写锁定已打开',
} as const;

export const authRedirect = {
  text: '正在返回登录页…',
} as const;

export const dashboard = {
  welcome: '欢迎回来，{{name}}',
  intro: '在左侧菜单中选择要处理的业务；可以通过顶栏切换区域、语言和布局大小。',
  currentArea: '当前区域',
  noArea: '未分配区域',
  areaName: '区域名称',
  address: '地址',
  contact: '联系电话',
  timezone: '时区',
  roles: '权限',
  quickLinks: '快捷入口',
  noQuickLinks: '暂无可用的业务菜单',
  latestEvents: '最新事件',
  noEvents: '最近 24 小时没有刷卡或门事件',
  allEvents: '全部记录',
} as const;

export const profile = {
  title: '个人中心',
  account: '账号信息',
  userName: '用户名',
  name: '姓名',
  avatar: '头像地址',
  avatarHint: '图片地址，相对于图片服务器地址：{{base}}',
  save: '保存资料',
  saved: '资料已保存',
  password: '修改密码',
  oldPassword: '原密码',
  newPassword: '新密码',
  confirmPassword: '确认新密码',
  passwordMismatch: '两次输入的密码不一致',
  changePassword: '修改密码',
  passwordChanged: '密码已修改',
} as const;

export const errorPage = {
  title401: '没有访问权限',
  text401: '您没有访问此页面的权限，请联系管理员或返回首页。',
  title404: '页面不存在',
  text404: '您访问的页面不存在或已被移除，请检查网址是否正确。',
  home: '返回首页',
  back: '返回上一页',
} as const;

export const errorLogPage = {
  intro: '页面运行时的错误会被收集到顶栏的错误日志中，点击顶栏的错误图标可以查看详情。',
  renderError: '触发渲染错误',
  eventError: '触发事件错误',
  open: '查看错误日志',
  count: '已收集 {{count}} 条错误',
} as const;

export const i18nDemo = {
  title: '国际化演示',
  intro: '切换语言后，界面文字、日期和组件都会使用对应的语言。',
  language: '当前语言',
  date: '日期选择',
  pagination: '分页',
  empty: '空状态',
  confirm: '确认框',
  confirmText: '确定要执行此操作吗？',
  interpolation: '插值示例：你好，{{name}}！',
  today: '今天是 {{date}}',
} as const;

export const icons = {
  title: '图标',
  intro: '点击图标复制它的组件代码。',
  filter: '按名称筛选',
} as const;
