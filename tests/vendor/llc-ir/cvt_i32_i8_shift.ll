; i32 -> i8: a / 2^s rounded half to even, saturated (llvm.tpc.convert.int,
; lane 1, the shift s a scalar argument): element i to i8 lane 4i + 1, the
; other lanes from b (the income)
target triple = "tpc"

define void @main(i32 %s) {
entry:
  %off = call <5 x i32> @llvm.tpc.get.index.space.offset()
  %size = call <5 x i32> @llvm.tpc.get.index.space.size()
  %first = extractelement <5 x i32> %off, i32 0
  %n = extractelement <5 x i32> %size, i32 0
  %last = add i32 %first, %n
  br label %body

body:
  %i = phi i32 [ %first, %entry ], [ %next, %body ]
  %x = mul i32 %i, 64
  %c = insertelement <5 x i32> zeroinitializer, i32 %x, i32 0
  %a = call <64 x i32> @llvm.tpc.ld.tnsr.v64i32.i1(<5 x i32> %c, i8 0, i32 0, <64 x i32> undef, i1 true, i1 false)
  %x4 = mul i32 %i, 256
  %c4 = insertelement <5 x i32> zeroinitializer, i32 %x4, i32 0
  %b = call <256 x i8> @llvm.tpc.ld.tnsr.v256i8.i1(<5 x i32> %c4, i8 1, i32 0, <256 x i8> undef, i1 true, i1 false)
  %s8 = trunc i32 %s to i8
  %sv = insertelement <256 x i8> undef, i8 %s8, i32 0
  %ss = shufflevector <256 x i8> %sv, <256 x i8> undef, <256 x i32> zeroinitializer
  %r = call <256 x i8> @llvm.tpc.convert.int.v256i8.v64i32.v256i8.i1(<64 x i32> %a, <256 x i8> %ss, i32 1, <256 x i8> %b, i1 true, i1 false)
  call void @llvm.tpc.st.tnsr.v256i8(<5 x i32> %c4, i8 2, <256 x i8> %r, i32 0, i1 true, i1 false)
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %last
  br i1 %more, label %body, label %exit

exit:
  ret void
}

declare <5 x i32> @llvm.tpc.get.index.space.offset()
declare <5 x i32> @llvm.tpc.get.index.space.size()
declare <64 x i32> @llvm.tpc.ld.tnsr.v64i32.i1(<5 x i32>, i8, i32, <64 x i32>, i1, i1)
declare <256 x i8> @llvm.tpc.ld.tnsr.v256i8.i1(<5 x i32>, i8, i32, <256 x i8>, i1, i1)
declare <256 x i8> @llvm.tpc.convert.int.v256i8.v64i32.v256i8.i1(<64 x i32>, <256 x i8>, i32, <256 x i8>, i1, i1)
declare void @llvm.tpc.st.tnsr.v256i8(<5 x i32>, i8, <256 x i8>, i32, i1, i1)
